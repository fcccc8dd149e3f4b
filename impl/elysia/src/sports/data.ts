// Data access for the sports API: parameterised SQL on one node-postgres pool (DB_POOL_SIZE
// connections), the same driver and statements as impl/express so that the data layer stays out
// of an Express-versus-Elysia comparison. Rows leave this module in the API's shape (camelCase,
// ids as numbers, dates as the DATE's 'YYYY-MM-DD' text: server.ts turns off pg's Date parsing).
// The booking rule and one rating per reservation are the database's constraints: their
// violations (SQLSTATE 23P01, 23505) come back as Overlap and Taken errors.
import type { Pool } from 'pg';
import type { FieldInput, Paging, RatingInput, ReservationInput, Sport, SportsUser, Status } from './schemas.ts';

/** A unique key refused the row (a taken username, a field name, a second rating). */
export class Taken extends Error {}
/** The exclusion constraint refused an overlapping slot. */
export class Overlap extends Error {}

const UNIQUE_VIOLATION = '23505';
const EXCLUSION_VIOLATION = '23P01';

export interface Facility {
  readonly id: number;
  readonly name: string;
  readonly city: string;
  readonly address: string;
  readonly ownerId: number;
}
export interface Field {
  readonly id: number;
  readonly facilityId: number;
  readonly name: string;
  readonly sport: Sport;
  readonly pricePerHour: number;
}
export interface Reservation {
  readonly id: number;
  readonly fieldId: number;
  readonly userId: number;
  readonly date: string;
  readonly startHour: number;
  readonly endHour: number;
  readonly status: Status;
}
/** A reservation with the owner of its field's facility, for the permission checks. */
export interface OwnedReservation extends Reservation {
  readonly ownerId: number;
}
export interface ReservationListItem extends Reservation {
  readonly fieldName: string;
  readonly facilityId: number;
  readonly facilityName: string;
}
export interface Rating {
  readonly reservationId: number;
  readonly score: number;
  readonly comment: string | null;
}
export interface Page<T> {
  readonly items: T[];
  readonly page: number;
  readonly size: number;
  readonly total: number;
}

const USER = 'id, username, name, surname, role';
const FACILITY = 'id, name, city, address, owner_id AS "ownerId"';
const FIELD = 'id, facility_id AS "facilityId", name, sport, price_per_hour AS "pricePerHour"';
const RESERVATION = 'r.id, r.field_id AS "fieldId", r.user_id AS "userId", r.date, r.start_hour AS "startHour", r.end_hour AS "endHour", r.status';
const RATING = 'reservation_id AS "reservationId", score, comment';
// Two concurrent inserts of overlapping slots can each wait for the other's exclusion check:
// PostgreSQL then aborts one with a deadlock (40P01, a 500) after deadlock_timeout. A
// transaction-scoped advisory lock on (field, date), taken in the same statement before the
// row, makes the inserts of one field and day take turns, so the loser gets 23P01 (a 409).
const INSERT_RESERVATION = `WITH slot AS (SELECT pg_advisory_xact_lock($1::int, $3::date - DATE '2000-01-01'))
  INSERT INTO reservation AS r (field_id, user_id, date, start_hour, end_hour) SELECT $1::int, $2::int, $3::date, $4::smallint, $5::smallint FROM slot
  RETURNING ${RESERVATION}`;
const RESERVATION_JOIN = 'FROM reservation r JOIN sports_field f ON f.id = r.field_id JOIN sports_facility fa ON fa.id = f.facility_id';

/** Runs `write`; a violation of `state` (SQLSTATE) becomes `refusal`. */
async function refusing<T>(state: string, refusal: new (message: string) => Error, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    const e = err as { code?: unknown; detail?: unknown };
    if (e.code === state) throw new refusal(typeof e.detail === 'string' ? e.detail : state);
    throw err;
  }
}

export type SportsData = ReturnType<typeof createSportsData>;

export function createSportsData(pool: Pool) {
  const all = async <T>(sql: string, params: unknown[] = []): Promise<T[]> => (await pool.query(sql, params)).rows as T[];
  const one = async <T>(sql: string, params: unknown[]): Promise<T | null> => (await all<T>(sql, params))[0] ?? null;
  /** A page of `sql` (which orders its rows) and the total `countSql` finds, in parallel. */
  async function pageOf<T>(sql: string, countSql: string, params: unknown[], { page, size }: Paging): Promise<Page<T>> {
    const [items, counted] = await Promise.all([all<T>(`${sql} LIMIT ${size} OFFSET ${(page - 1) * size}`, params), one<{ n: string }>(countSql, params)]);
    return { items, page, size, total: Number(counted!.n) };
  }

  return {
    userById: (id: number) => one<SportsUser>(`SELECT ${USER} FROM app_user WHERE id = $1`, [id]),

    /** The user and stored bcrypt hash for a login, or null. */
    async credentials(username: string): Promise<{ user: SportsUser; hash: string } | null> {
      // No username holds U+0000, and PostgreSQL text cannot even be compared with one.
      if (username.includes('\u0000')) return null;
      const row = await one<SportsUser & { password_hash: string }>(`SELECT ${USER}, password_hash FROM app_user WHERE username = $1`, [username]);
      if (row === null) return null;
      const { password_hash: hash, ...user } = row;
      return { user, hash };
    },

    /** Inserts a user with role `user` (never the client's); Taken on a duplicate username. */
    createUser: ({ username, passwordHash, name, surname }: { username: string; passwordHash: string; name: string; surname: string }) =>
      refusing(UNIQUE_VIOLATION, Taken, async () =>
        (await one<SportsUser>(`INSERT INTO app_user (username, password_hash, name, surname, role) VALUES ($1, $2, $3, $4, 'user') RETURNING ${USER}`, [username, passwordHash, name, surname]))!,
      ),

    facilities: (paging: Paging) => pageOf<Facility>(`SELECT ${FACILITY} FROM sports_facility ORDER BY id`, 'SELECT COUNT(*) AS n FROM sports_facility', [], paging),

    facilityById: (id: number) => one<Facility>(`SELECT ${FACILITY} FROM sports_facility WHERE id = $1`, [id]),

    fieldsOf: (facilityId: number) => all<Field>(`SELECT ${FIELD} FROM sports_field WHERE facility_id = $1 ORDER BY id`, [facilityId]),

    /** Taken when the facility already has a field of that name. */
    createField: (facilityId: number, { name, sport, pricePerHour }: FieldInput) =>
      refusing(UNIQUE_VIOLATION, Taken, async () =>
        (await one<Field>(`INSERT INTO sports_field (facility_id, name, sport, price_per_hour) VALUES ($1, $2, $3, $4) RETURNING ${FIELD}`, [facilityId, name, sport, pricePerHour]))!,
      ),

    fields(paging: Paging, sport: Sport | undefined) {
      const where = sport === undefined ? '' : ' WHERE sport = $1';
      return pageOf<Field>(`SELECT ${FIELD} FROM sports_field${where} ORDER BY id`, `SELECT COUNT(*) AS n FROM sports_field${where}`, sport === undefined ? [] : [sport], paging);
    },

    fieldById: (id: number) => one<Field>(`SELECT ${FIELD} FROM sports_field WHERE id = $1`, [id]),

    /** The caller's reservations (a user's own, an owner's fields'), each with its field's and facility's names, in one joined query. */
    async reservations(caller: SportsUser, paging: Paging, status: Status | undefined): Promise<Page<ReservationListItem>> {
      const params: unknown[] = [caller.id];
      let where = caller.role === 'owner' ? 'fa.owner_id = $1' : 'r.user_id = $1';
      if (status !== undefined) {
        params.push(status);
        where += ' AND r.status = $2';
      }
      return pageOf<ReservationListItem>(
        `SELECT ${RESERVATION}, f.name AS "fieldName", fa.id AS "facilityId", fa.name AS "facilityName" ${RESERVATION_JOIN} WHERE ${where} ORDER BY r.id`,
        `SELECT COUNT(*) AS n ${RESERVATION_JOIN} WHERE ${where}`,
        params,
        paging,
      );
    },

    /** The reservation with its field's owner, or null. */
    reservationById: (id: number) => one<OwnedReservation>(`SELECT ${RESERVATION}, fa.owner_id AS "ownerId" ${RESERVATION_JOIN} WHERE r.id = $1`, [id]),

    /** A pending reservation; Overlap when a pending or accepted one of the field and date overlaps the slot. */
    createReservation: (userId: number, { fieldId, date, startHour, endHour }: ReservationInput) =>
      refusing(EXCLUSION_VIOLATION, Overlap, async () =>
        (await one<Reservation>(INSERT_RESERVATION, [fieldId, userId, date, startHour, endHour]))!,
      ),

    /** Decides a pending reservation; null when it is no longer pending (decisions are final). */
    decide: (id: number, status: 'accepted' | 'refused') =>
      one<Reservation>(`UPDATE reservation AS r SET status = $2 WHERE r.id = $1 AND r.status = 'pending' RETURNING ${RESERVATION}`, [id, status]),

    ratingOf: (reservationId: number) => one<Rating>(`SELECT ${RATING} FROM rating WHERE reservation_id = $1`, [reservationId]),

    /** Taken when the reservation is rated already (the rating's primary key). */
    createRating: (reservationId: number, { score, comment }: RatingInput) =>
      refusing(UNIQUE_VIOLATION, Taken, async () =>
        (await one<Rating>(`INSERT INTO rating (reservation_id, score, comment) VALUES ($1, $2, $3) RETURNING ${RATING}`, [reservationId, score, comment ?? null]))!,
      ),
  };
}
