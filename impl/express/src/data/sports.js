// Data access for the sports API: parameterised SQL on one pg pool (DB_POOL_SIZE
// connections). Rows leave this module in the API's shape (camelCase, ids as numbers).
// The booking rule and one-rating-per-reservation are the database's constraints: their
// violations (SQLSTATE 23P01, 23505) come back as Overlap and Taken errors.

export class Taken extends Error {}
export class Overlap extends Error {}

const UNIQUE_VIOLATION = '23505';
const EXCLUSION_VIOLATION = '23P01';

const USER = 'id, username, name, surname, role';
const FACILITY = 'id, name, city, address, owner_id AS "ownerId"';
const FIELD = 'id, facility_id AS "facilityId", name, sport, price_per_hour AS "pricePerHour"';
const RESERVATION = 'r.id, r.field_id AS "fieldId", r.user_id AS "userId", r.date, r.start_hour AS "startHour", r.end_hour AS "endHour", r.status';
// Two concurrent inserts of overlapping slots can each wait for the other's exclusion check:
// PostgreSQL then aborts one with a deadlock (40P01, a 500) after deadlock_timeout. A
// transaction-scoped advisory lock on (field, date), taken in the same statement before the
// row, makes the inserts of one field and day take turns, so the loser gets 23P01 (a 409).
const INSERT_RESERVATION = `WITH slot AS (SELECT pg_advisory_xact_lock($1::int, $3::date - DATE '2000-01-01'))
  INSERT INTO reservation AS r (field_id, user_id, date, start_hour, end_hour) SELECT $1::int, $2::int, $3::date, $4::smallint, $5::smallint FROM slot
  RETURNING ${RESERVATION}`;

/** Runs `insert`; a unique violation becomes a Taken error. */
async function unique(insert) {
  try {
    return await insert();
  } catch (err) {
    if (err.code === UNIQUE_VIOLATION) throw new Taken(err.detail ?? 'taken');
    throw err;
  }
}

/** @param {import('pg').Pool} pool */
export function createSportsData(pool) {
  const one = async (sql, params) => (await pool.query(sql, params)).rows[0] ?? null;
  const all = async (sql, params) => (await pool.query(sql, params)).rows;
  const count = async (sql, params) => Number((await pool.query(sql, params)).rows[0].n);
  /** A page: the rows of `sql` (which orders them) from `offset`, and the total `countSql` finds. */
  async function pageOf(sql, countSql, params, { page, size }) {
    const [items, total] = await Promise.all([all(`${sql} LIMIT ${size} OFFSET ${(page - 1) * size}`, params), count(countSql, params)]);
    return { items, page, size, total };
  }

  return {
    userById: (id) => one(`SELECT ${USER} FROM app_user WHERE id = $1`, [id]),

    /** The user and stored hash for a login, or null. */
    async credentials(username) {
      // No username holds U+0000, and PostgreSQL text cannot even be compared with one.
      if (username.includes('\u0000')) return null;
      const row = await one(`SELECT ${USER}, password_hash FROM app_user WHERE username = $1`, [username]);
      if (row === null) return null;
      const { password_hash: hash, ...user } = row;
      return { user, hash };
    },

    createUser: ({ username, passwordHash, name, surname }) =>
      unique(() => one(`INSERT INTO app_user (username, password_hash, name, surname, role) VALUES ($1, $2, $3, $4, 'user') RETURNING ${USER}`, [username, passwordHash, name, surname])),

    facilities: (paging) => pageOf(`SELECT ${FACILITY} FROM sports_facility ORDER BY id`, 'SELECT COUNT(*) AS n FROM sports_facility', [], paging),

    facilityById: (id) => one(`SELECT ${FACILITY} FROM sports_facility WHERE id = $1`, [id]),

    fieldsOf: (facilityId) => all(`SELECT ${FIELD} FROM sports_field WHERE facility_id = $1 ORDER BY id`, [facilityId]),

    createField: (facilityId, { name, sport, pricePerHour }) =>
      unique(() => one(`INSERT INTO sports_field (facility_id, name, sport, price_per_hour) VALUES ($1, $2, $3, $4) RETURNING ${FIELD}`, [facilityId, name, sport, pricePerHour])),

    fields(paging, sport) {
      const where = sport === undefined ? '' : ' WHERE sport = $1';
      return pageOf(`SELECT ${FIELD} FROM sports_field${where} ORDER BY id`, `SELECT COUNT(*) AS n FROM sports_field${where}`, sport === undefined ? [] : [sport], paging);
    },

    fieldById: (id) => one(`SELECT ${FIELD} FROM sports_field WHERE id = $1`, [id]),

    /** The caller's reservations (a user's own, an owner's fields'), each with its field's and facility's names, in one joined query. */
    async reservations(caller, paging, status) {
      const params = [caller.id];
      let where = caller.role === 'owner' ? 'fa.owner_id = $1' : 'r.user_id = $1';
      if (status !== undefined) {
        params.push(status);
        where += ' AND r.status = $2';
      }
      const from = 'FROM reservation r JOIN sports_field f ON f.id = r.field_id JOIN sports_facility fa ON fa.id = f.facility_id';
      return pageOf(
        `SELECT ${RESERVATION}, f.name AS "fieldName", fa.id AS "facilityId", fa.name AS "facilityName" ${from} WHERE ${where} ORDER BY r.id`,
        `SELECT COUNT(*) AS n ${from} WHERE ${where}`,
        params,
        paging,
      );
    },

    /** The reservation with its field's owner (for permission checks), or null. */
    reservationById: (id) =>
      one(`SELECT ${RESERVATION}, fa.owner_id AS "ownerId" FROM reservation r JOIN sports_field f ON f.id = r.field_id JOIN sports_facility fa ON fa.id = f.facility_id WHERE r.id = $1`, [id]),

    async createReservation(userId, { fieldId, date, startHour, endHour }) {
      try {
        return await one(INSERT_RESERVATION, [fieldId, userId, date, startHour, endHour]);
      } catch (err) {
        if (err.code === EXCLUSION_VIOLATION) throw new Overlap(err.detail ?? 'overlap');
        throw err;
      }
    },

    /** Decides a pending reservation; null when it is no longer pending (decisions are final). */
    decide: (id, status) => one(`UPDATE reservation AS r SET status = $2 WHERE r.id = $1 AND r.status = 'pending' RETURNING ${RESERVATION}`, [id, status]),

    ratingOf: (reservationId) => one('SELECT reservation_id AS "reservationId", score, comment FROM rating WHERE reservation_id = $1', [reservationId]),

    createRating: (reservationId, { score, comment }) =>
      unique(() => one('INSERT INTO rating (reservation_id, score, comment) VALUES ($1, $2, $3) RETURNING reservation_id AS "reservationId", score, comment', [reservationId, score, comment ?? null])),
  };
}
