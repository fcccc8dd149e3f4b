// The sports fixtures for the flows: direct reads of the five tables (db: steps), their
// digest (every rejected request must leave it unchanged), and the seed's named accounts
// and rows with the exact answers the API must give for them (views.ts).
import pg from 'pg';
import { databaseUrl } from '@fairbench/harness/api/dataset.ts';
import type { ConformanceModule } from '@fairbench/conformance/api-module.ts';
import { SqlRecords } from '@fairbench/conformance/stores/records.ts';
import { TABLES, type AppUser, type Reservation, type SportsDataset, type Tables } from '../dataset/model.ts';
import { facilityView, facilityWithFields, fieldView, listItem, ownerOf, page, publicUser, ratingView, reservationView, reservationsOf } from './views.ts';

/** A seeded account as flows use it: `sub` for forged tokens, credentials for login, its public profile. */
function account(u: AppUser, password: string) {
  return { id: u.id, sub: String(u.id), role: u.role, username: u.username, password, user: publicUser(u) };
}

function pick(t: Tables, what: string, test: (r: Reservation) => boolean): Reservation {
  const found = t.reservation.find(test);
  if (found === undefined) throw new Error(`the sports conformance seed has no ${what} reservation: change its scale or seed`);
  return found;
}

export function flowVariables(data: SportsDataset) {
  const t = data.tables;
  const acc = (id: number) => account(t.app_user[id - 1]!, data.passwords.get(id)!);
  const rated = new Set(t.rating.map((r) => r.reservation_id));
  const pending = pick(t, 'pending', (r) => r.status === 'pending');
  const accepted = pick(t, 'accepted unrated', (r) => r.status === 'accepted' && !rated.has(r.id));
  const ratedOne = pick(t, 'rated', (r) => rated.has(r.id));
  const refused = pick(t, 'refused', (r) => r.status === 'refused');
  // Roles around a reservation: its user, its owner, another owner and another user.
  const around = (r: Reservation) => {
    const owner = ownerOf(t, r);
    const otherOwner = t.app_user.find((u) => u.role === 'owner' && u.id !== owner)!;
    const otherUser = t.app_user.find((u) => u.role === 'user' && u.id !== r.user_id)!;
    return { id: r.id, reservation: reservationView(r), user: acc(r.user_id), owner: acc(owner), otherOwner: acc(otherOwner.id), otherUser: acc(otherUser.id) };
  };
  const owner1 = t.app_user[0]!;
  const firstUser = t.app_user.find((u) => u.role === 'user')!;
  const facility1 = t.sports_facility[0]!;
  const otherFacility = t.sports_facility.find((f) => f.owner_id !== owner1.id)!;
  const allFields = t.sports_field.map(fieldView);
  const tennis = allFields.filter((f) => f.sport === 'tennis');
  return {
    owner1: acc(owner1.id),
    user1: acc(firstUser.id),
    user2: acc(firstUser.id + 1),
    facility1: { id: facility1.id, view: facilityWithFields(t, facility1), firstField: fieldView(t.sports_field.find((f) => f.facility_id === facility1.id)!) },
    otherFacility: { id: otherFacility.id, owner: acc(otherFacility.owner_id) },
    field1: fieldView(t.sports_field[0]!),
    facilitiesDefault: page(t.sports_facility.map(facilityView), 1, 20),
    facilitiesPage2Size4: page(t.sports_facility.map(facilityView), 2, 4),
    facilitiesPastEnd: page(t.sports_facility.map(facilityView), 9, 4),
    fieldsDefault: page(allFields, 1, 20),
    fieldsPage2Size5: page(allFields, 2, 5),
    fieldsTennis: page(tennis, 1, 100),
    reservationsOfUser1: page(
      reservationsOf(t, firstUser).map((r) => listItem(t, r)),
      1,
      20,
    ),
    reservationsOfOwner1: page(
      reservationsOf(t, owner1).map((r) => listItem(t, r)),
      1,
      20,
    ),
    pendingOfOwner1: page(
      reservationsOf(t, owner1)
        .filter((r) => r.status === 'pending')
        .map((r) => listItem(t, r)),
      1,
      100,
    ),
    pending: around(pending),
    accepted: around(accepted),
    rated: { ...around(ratedOne), rating: ratingView(t.rating.find((r) => r.reservation_id === ratedOne.id)!) },
    refused: around(refused),
    counts: { users: t.app_user.length, fields: t.sports_field.length, reservations: t.reservation.length, ratings: t.rating.length },
    unknownId: 2147483647,
  };
}

const sportsConformance: ConformanceModule<SportsDataset, 'flows'> = {
  suites: ['flows'],
  async prepare(seeded, databases) {
    const url = databaseUrl(databases, 'postgres');
    const records = await SqlRecords.connect('postgres', url);
    const pool = new pg.Pool({ connectionString: url, max: 2 });
    pool.on('error', () => {});
    // Row contents only: a refused insert still uses up a sequence value, which is no change of data.
    const digestSql = TABLES.map((t) => `(SELECT md5(COALESCE(string_agg(x::text, '|' ORDER BY x::text), '')) FROM ${t} x)`).join(' || ');
    const store = { digest: async () => String((await pool.query(`SELECT ${digestSql} AS d`)).rows[0].d) };
    // Statements the implementation ran (steps with maxStatements: the N+1 checks). The
    // provisioner preloads pg_stat_statements; the view needs the extension in this database.
    // This query names the view, so it does not count itself; the suite's own digest and db:
    // reads run outside the counted requests. SET is a session's set-up, not a request's query:
    // PgJDBC opens each connection with SET extra_float_digits and SET application_name, and a
    // pool that fills in the background (HikariCP) can open one during a counted request.
    await pool.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
    const statements = async () =>
      Number(
        (
          await pool.query(
            "SELECT COALESCE(SUM(calls), 0) AS n FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database()) AND query NOT LIKE '%pg_stat_statements%' AND query NOT ILIKE 'SET %'",
          )
        ).rows[0].n,
      );
    return {
      store,
      fixtures: { flows: { records, variables: flowVariables(seeded.data), statements } },
      close: async () => {
        await records.close();
        await pool.end();
      },
    };
  },
};
export default sportsConformance;
