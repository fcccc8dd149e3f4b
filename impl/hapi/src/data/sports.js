// Data access of the sports API: parameterised SQL on the node-postgres pool server.js made
// (DB_POOL_SIZE connections, every wait bounded by src/db-timeouts.js). Rows leave in the
// API's shape: camelCase names, ids as numbers, dates as 'YYYY-MM-DD' text (to_char: no
// Date object, no timezone). The booking rule and one rating per reservation are the
// database's constraints; their refusals come back as Overlap and Taken.

/** A unique key refused the row (a taken username, a field name, a second rating). */
export class Taken extends Error {}
/** The exclusion constraint refused an overlapping pending or accepted reservation. */
export class Overlap extends Error {}

const UNIQUE_VIOLATION = '23505';
const EXCLUSION_VIOLATION = '23P01';

const USER = 'u.id, u.username, u.name, u.surname, u.role';
const FACILITY = 'fa.id, fa.name, fa.city, fa.address, fa.owner_id AS "ownerId"';
const FIELD = 'f.id, f.facility_id AS "facilityId", f.name, f.sport, f.price_per_hour AS "pricePerHour"';
const RESERVATION =
  'r.id, r.field_id AS "fieldId", r.user_id AS "userId", to_char(r.date, \'YYYY-MM-DD\') AS date, r.start_hour AS "startHour", r.end_hour AS "endHour", r.status';
const RATING = 'reservation_id AS "reservationId", score, comment';
// Two concurrent inserts of overlapping slots can each wait for the other's exclusion check:
// PostgreSQL then aborts one with a deadlock (40P01, a 500) after deadlock_timeout. A
// transaction-scoped advisory lock on (field, date), taken in the same statement before the
// row, makes the inserts of one field and day take turns, so the loser gets 23P01 (a 409).
const INSERT_RESERVATION = `WITH slot AS (SELECT pg_advisory_xact_lock($1::int, $3::date - DATE '2000-01-01'))
  INSERT INTO reservation AS r (field_id, user_id, date, start_hour, end_hour) SELECT $1::int, $2::int, $3::date, $4::smallint, $5::smallint FROM slot
  RETURNING ${RESERVATION}`;
// A reservation with its field and facility: the list's names, the owner for permission checks.
const RESERVATION_JOIN = 'reservation r JOIN sports_field f ON f.id = r.field_id JOIN sports_facility fa ON fa.id = f.facility_id';

/** Maps the database's refusal `code` of a write to `As` (the other errors pass). */
async function refusing(code, As, write) {
  try {
    return await write();
  } catch (err) {
    if (err.code === code) throw new As(err.detail ?? err.message);
    throw err;
  }
}

/** @param {import('pg').Pool} pool */
export function createSportsData(pool) {
  const rows = async (sql, params) => (await pool.query(sql, params)).rows;
  const row = async (sql, params) => (await rows(sql, params))[0] ?? null;

  /** One page of `from` (tables and a WHERE clause over `params`) ordered by `id`, and how many rows all pages hold. */
  async function page(select, from, id, params, { page: number, size }) {
    const n = params.length;
    const [items, counted] = await Promise.all([
      rows(`SELECT ${select} FROM ${from} ORDER BY ${id} LIMIT $${n + 1} OFFSET $${n + 2}`, [...params, size, (number - 1) * size]),
      row(`SELECT COUNT(*) AS total FROM ${from}`, params),
    ]);
    return { items, page: number, size, total: Number(counted.total) };
  }

  return {
    userById: (id) => row(`SELECT ${USER} FROM app_user u WHERE u.id = $1`, [id]),

    /** The user and their stored hash for a login, or null. */
    async credentials(username) {
      // PostgreSQL text cannot hold U+0000 (nor be compared with it): no username has one.
      if (username.includes('\u0000')) return null;
      const found = await row(`SELECT ${USER}, u.password_hash AS hash FROM app_user u WHERE u.username = $1`, [username]);
      if (found === null) return null;
      const { hash, ...user } = found;
      return { user, hash };
    },

    createUser: ({ username, passwordHash, name, surname }) =>
      refusing(UNIQUE_VIOLATION, Taken, () =>
        row(`INSERT INTO app_user AS u (username, password_hash, name, surname, role) VALUES ($1, $2, $3, $4, 'user') RETURNING ${USER}`, [username, passwordHash, name, surname]),
      ),

    facilities: (paging) => page(FACILITY, 'sports_facility fa', 'fa.id', [], paging),

    facilityById: (id) => row(`SELECT ${FACILITY} FROM sports_facility fa WHERE fa.id = $1`, [id]),

    fieldsOf: (facilityId) => rows(`SELECT ${FIELD} FROM sports_field f WHERE f.facility_id = $1 ORDER BY f.id`, [facilityId]),

    createField: (facilityId, { name, sport, pricePerHour }) =>
      refusing(UNIQUE_VIOLATION, Taken, () =>
        row(`INSERT INTO sports_field AS f (facility_id, name, sport, price_per_hour) VALUES ($1, $2, $3, $4) RETURNING ${FIELD}`, [facilityId, name, sport, pricePerHour]),
      ),

    fields: (paging, sport) =>
      sport === undefined ? page(FIELD, 'sports_field f', 'f.id', [], paging) : page(FIELD, 'sports_field f WHERE f.sport = $1', 'f.id', [sport], paging),

    fieldById: (id) => row(`SELECT ${FIELD} FROM sports_field f WHERE f.id = $1`, [id]),

    /** The caller's reservations (a user's own, those of an owner's fields) with their field's and facility's names: one joined query and its count. */
    async reservations(caller, paging, status) {
      const mine = caller.role === 'owner' ? 'fa.owner_id = $1' : 'r.user_id = $1';
      const where = status === undefined ? mine : `${mine} AND r.status = $2`;
      const params = status === undefined ? [caller.id] : [caller.id, status];
      return page(`${RESERVATION}, f.name AS "fieldName", fa.id AS "facilityId", fa.name AS "facilityName"`, `${RESERVATION_JOIN} WHERE ${where}`, 'r.id', params, paging);
    },

    /** The reservation and its field's owner (`ownerId`, for the permission checks), or null. */
    reservationById: (id) => row(`SELECT ${RESERVATION}, fa.owner_id AS "ownerId" FROM ${RESERVATION_JOIN} WHERE r.id = $1`, [id]),

    createReservation: (userId, { fieldId, date, startHour, endHour }) =>
      refusing(EXCLUSION_VIOLATION, Overlap, () =>
        row(INSERT_RESERVATION, [fieldId, userId, date, startHour, endHour]),
      ),

    /** Decides a pending reservation; null when it is no longer pending (a decision is final). */
    decide: (id, status) => row(`UPDATE reservation AS r SET status = $2 WHERE r.id = $1 AND r.status = 'pending' RETURNING ${RESERVATION}`, [id, status]),

    ratingOf: (reservationId) => row(`SELECT ${RATING} FROM rating WHERE reservation_id = $1`, [reservationId]),

    createRating: (reservationId, { score, comment }) =>
      refusing(UNIQUE_VIOLATION, Taken, () => row(`INSERT INTO rating (reservation_id, score, comment) VALUES ($1, $2, $3) RETURNING ${RATING}`, [reservationId, score, comment ?? null])),
  };
}
