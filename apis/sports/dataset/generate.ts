// Deterministic sports data: owners (ids 1..owners) then users, each owner's facilities,
// each facility's fields, past reservations filling each field's slots in order (so none
// overlap), and ratings of some accepted ones. One seed, the same rows every time.
import { deterministicSalt, hashAll } from './passwords.ts';
import { seededRandom, type Random } from './random.ts';
import {
  SEED_YEAR,
  SPORTS,
  type AppUser,
  type Facility,
  type Field,
  type Rating,
  type Reservation,
  type SportsDataset,
  type SportsScale,
  type Status,
} from './model.ts';

const FIRST = ['Ada', 'Luigi', 'Sergio', 'Maria', 'Giulia', 'Marco', 'Sofia', 'Paolo', 'Chiara', 'Luca', 'Elena', 'Franco', 'Anna', 'Dario', 'Irene'];
const LAST = ['Rossi', 'Esposito', 'Romano', 'Colombo', 'Ricci', 'Greco', 'Bruno', 'Gallo', 'Conti', 'Costa', 'Marino', 'Fontana', 'Serra', 'Vitale'];
const CLUB = ['Vesuvio', 'Posillipo', 'Mergellina', 'Chiaia', 'Vomero', 'Partenope', 'Capri', 'Ischia', 'Sannio', 'Caserta'];
const KIND = ['Sporting Club', 'Tennis Club', 'Sports Center', 'Athletic Club', 'Arena'];
const CITY = ['Napoli', 'Salerno', 'Caserta', 'Avellino', 'Benevento', 'Pozzuoli'];
const STREET = ['Via Toledo', 'Via Caracciolo', 'Corso Umberto I', 'Via Manzoni', 'Via Orazio', 'Viale Augusto'];
const COMMENTS = ['Great court', 'Lights were dim', 'Friendly staff', 'Surface needs work', 'Would book again'];
/** Of the seeded reservations: 60% accepted, 25% pending, 15% refused; half the accepted ones are rated. */
const STATUS_WEIGHTS: readonly [Status, number][] = [
  ['accepted', 0.6],
  ['pending', 0.25],
  ['refused', 0.15],
];

function checkScale(s: SportsScale): void {
  for (const [name, value] of Object.entries(s)) {
    if (!Number.isInteger(value) || value < (name === 'reservations' ? 0 : 1)) throw new RangeError(`${name} must be a positive integer, got ${value}`);
  }
}

function status(random: Random): Status {
  let x = random.next();
  for (const [s, w] of STATUS_WEIGHTS) if ((x -= w) < 0) return s;
  return 'accepted';
}

function dayOfYear(day: number): string {
  return new Date(Date.UTC(SEED_YEAR, 0, 1 + day)).toISOString().slice(0, 10);
}

export async function generateSports(scale: SportsScale): Promise<SportsDataset> {
  checkScale(scale);
  const random = seededRandom(scale.seed);
  const plain: (Omit<AppUser, 'password_hash'> & { password: string; salt: string })[] = [];
  for (let i = 1; i <= scale.owners + scale.users; i++) {
    const owner = i <= scale.owners;
    plain.push({
      id: i,
      username: owner ? `owner${i}` : `user${i - scale.owners}`,
      name: random.pick(FIRST),
      surname: random.pick(LAST),
      role: owner ? 'owner' : 'user',
      password: `pw-${random.int(100000, 999999)}-${i}`,
      salt: deterministicSalt(random),
    });
  }
  const hashes = await hashAll(plain);
  const app_user: AppUser[] = plain.map(({ password: _p, salt: _s, ...u }, i) => ({ ...u, password_hash: hashes[i]! }));

  const sports_facility: Facility[] = [];
  const sports_field: Field[] = [];
  for (let owner = 1; owner <= scale.owners; owner++) {
    for (let k = 0; k < scale.facilitiesPerOwner; k++) {
      const id = sports_facility.length + 1;
      sports_facility.push({
        id,
        owner_id: owner,
        name: `${random.pick(CLUB)} ${random.pick(KIND)} ${id}`,
        city: random.pick(CITY),
        address: `${random.pick(STREET)} ${random.int(1, 200)}`,
      });
      for (let f = 1; f <= scale.fieldsPerFacility; f++) {
        const sport = random.pick(SPORTS);
        sports_field.push({
          id: sports_field.length + 1,
          facility_id: id,
          name: `${sport[0]!.toUpperCase()}${sport.slice(1)} ${f}`,
          sport,
          price_per_hour: random.int(10, 60),
        });
      }
    }
  }

  // Each field's next free slot: day of SEED_YEAR and hour; slots follow each other, so none overlap.
  const cursor = sports_field.map(() => ({ day: 0, hour: 6 }));
  const reservation: Reservation[] = [];
  const rating: Rating[] = [];
  for (let r = 1; r <= scale.reservations; r++) {
    const fieldIndex = (r - 1) % sports_field.length;
    const c = cursor[fieldIndex]!;
    const hours = random.int(1, 3);
    if (c.hour + hours > 23) Object.assign(c, { day: c.day + 1, hour: 6 });
    const s = status(random);
    reservation.push({
      id: r,
      field_id: fieldIndex + 1,
      user_id: scale.owners + random.int(1, scale.users),
      date: dayOfYear(c.day),
      start_hour: c.hour,
      end_hour: c.hour + hours,
      status: s,
    });
    c.hour += hours + random.int(0, 2);
    if (s === 'accepted' && random.next() < 0.5)
      rating.push({ reservation_id: r, score: random.int(1, 5), comment: random.next() < 0.5 ? null : random.pick(COMMENTS) });
  }
  return {
    scale,
    tables: { app_user, sports_facility, sports_field, reservation, rating },
    passwords: new Map(plain.map((u) => [u.id, u.password])),
  };
}
