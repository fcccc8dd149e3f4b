// Data access for the forum API: the four queries (+ the user-exists check),
// nothing else. Parameterised SQL only.
//
// pool.execute() = server-side prepared statements, which is what mysql2's
// documentation recommends for statements with parameters ("Using Prepared
// Statements": MySQL does not re-plan the same statement each time, and the
// values never become SQL text). mysql2 prepares each statement once per
// connection and caches it.
//
// LIMIT ?: mysql2 sends a JS number as DOUBLE, which MySQL >= 8.0.22 rejects in
// LIMIT ("Incorrect arguments to mysqld_stmt_execute"); the value is therefore
// bound as a decimal string, which MySQL and MariaDB both accept there. Ids are
// bound as numbers (exact for every INT value, accepted in comparisons).
// Dates: the pool uses dateStrings, so DATE columns arrive as 'YYYY-MM-DD'.

const COMMENT_COLUMNS = 'comment_id, thread_id, user_id, body, datemade, datelastupdated';

const JOIN_COLUMNS = `c.comment_id, c.thread_id, c.user_id, c.body, c.datemade, c.datelastupdated,
  u.user_id AS u_user_id, u.name AS u_name, u.email AS u_email, u.phone AS u_phone,
  u.datemade AS u_datemade, u.datelastupdated AS u_datelastupdated`;

const SQL = {
  commentById: `SELECT ${COMMENT_COLUMNS} FROM comment WHERE comment_id = ?`,
  commentsByLimit: `SELECT ${COMMENT_COLUMNS} FROM comment ORDER BY comment_id LIMIT ?`,
  firstCommentByUserId: `SELECT ${JOIN_COLUMNS}
    FROM comment c JOIN \`user\` u ON u.user_id = c.user_id
    WHERE c.user_id = ? ORDER BY c.comment_id LIMIT 1`,
  commentsByUserId: `SELECT ${JOIN_COLUMNS}
    FROM comment c JOIN \`user\` u ON u.user_id = c.user_id
    WHERE c.user_id = ? ORDER BY c.comment_id LIMIT ?`,
  userExists: 'SELECT 1 AS found FROM `user` WHERE user_id = ?',
};

function toComment(row) {
  return {
    comment_id: row.comment_id,
    thread_id: row.thread_id,
    user_id: row.user_id,
    body: row.body,
    datemade: row.datemade,
    datelastupdated: row.datelastupdated,
  };
}

function toCommentWithUser(row) {
  return {
    ...toComment(row),
    user: {
      user_id: row.u_user_id,
      name: row.u_name,
      email: row.u_email,
      phone: row.u_phone,
      datemade: row.u_datemade,
      datelastupdated: row.u_datelastupdated,
    },
  };
}

import { DB_TIMEOUT_MS } from '../db-timeouts.js';

/** @param {import('mysql2/promise').Pool} pool */
export function createForumData(pool, timeoutMs = DB_TIMEOUT_MS) {
  // Every statement carries a timeout: a stalled database gives an error (a 503) within
  // the bound instead of a request that hangs as long as the stall (make resilience).
  const run = (sql, params) => pool.execute({ sql, timeout: timeoutMs }, params);
  return {
    /** Comment or null. */
    async commentById(id) {
      const [rows] = await run(SQL.commentById, [id]);
      return rows.length ? toComment(rows[0]) : null;
    },

    /** The first `limit` comments by comment_id. */
    async commentsByLimit(limit) {
      const [rows] = await run(SQL.commentsByLimit, [String(limit)]);
      return rows.map(toComment);
    },

    /** The user's first comment joined with the user, or null. */
    async firstCommentByUserId(userId) {
      const [rows] = await run(SQL.firstCommentByUserId, [userId]);
      return rows.length ? toCommentWithUser(rows[0]) : null;
    },

    /** The user's first `limit` comments joined with the user ([] when none). */
    async commentsByUserId(userId, limit) {
      const [rows] = await run(SQL.commentsByUserId, [userId, String(limit)]);
      return rows.map(toCommentWithUser);
    },

    async userExists(userId) {
      const [rows] = await run(SQL.userExists, [userId]);
      return rows.length > 0;
    },
  };
}
