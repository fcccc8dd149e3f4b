// Data access for the forum API: its four reads (and the user-exists check) over the mysql2
// pool server.ts made (the one tpcc shares). Statements are prepared (execute: mysql2 prepares
// each once per connection) and each carries the 2 s timeout, so a stalled database is an
// error (a 503) in time. LIMIT ? is bound as a decimal string: mysql2 sends a JS number as a
// DOUBLE, which MySQL 8.0.22+ refuses in LIMIT. DATE columns arrive as 'YYYY-MM-DD' (the
// pool's dateStrings).
import type { Pool, RowDataPacket } from 'mysql2/promise';
import { DB_TIMEOUT_MS } from '../db-timeouts.ts';

export interface ForumUser {
  readonly user_id: number;
  readonly name: string;
  readonly email: string;
  readonly phone: string;
  readonly datemade: string | null;
  readonly datelastupdated: string | null;
}

export interface ForumComment {
  readonly comment_id: number;
  readonly thread_id: number;
  readonly user_id: number;
  readonly body: string;
  readonly datemade: string | null;
  readonly datelastupdated: string | null;
}

export interface ForumCommentWithUser extends ForumComment {
  readonly user: ForumUser;
}

const COMMENT = 'comment_id, thread_id, user_id, body, datemade, datelastupdated';
const COMMENT_AND_USER = `c.comment_id, c.thread_id, c.user_id, c.body, c.datemade, c.datelastupdated,
  u.user_id AS user_user_id, u.name AS user_name, u.email AS user_email, u.phone AS user_phone,
  u.datemade AS user_datemade, u.datelastupdated AS user_datelastupdated`;

const SQL = {
  commentById: `SELECT ${COMMENT} FROM comment WHERE comment_id = ?`,
  commentsByLimit: `SELECT ${COMMENT} FROM comment ORDER BY comment_id LIMIT ?`,
  // One statement per request: the join, not a query per row.
  firstCommentOfUser: `SELECT ${COMMENT_AND_USER} FROM comment c JOIN \`user\` u ON u.user_id = c.user_id
    WHERE c.user_id = ? ORDER BY c.comment_id LIMIT 1`,
  commentsOfUser: `SELECT ${COMMENT_AND_USER} FROM comment c JOIN \`user\` u ON u.user_id = c.user_id
    WHERE c.user_id = ? ORDER BY c.comment_id LIMIT ?`,
  userExists: 'SELECT 1 AS found FROM `user` WHERE user_id = ?',
} as const;

type Row = RowDataPacket & Record<string, any>;

const toComment = (row: Row): ForumComment => ({
  comment_id: row.comment_id,
  thread_id: row.thread_id,
  user_id: row.user_id,
  body: row.body,
  datemade: row.datemade,
  datelastupdated: row.datelastupdated,
});

const toCommentWithUser = (row: Row): ForumCommentWithUser => ({
  ...toComment(row),
  user: {
    user_id: row.user_user_id,
    name: row.user_name,
    email: row.user_email,
    phone: row.user_phone,
    datemade: row.user_datemade,
    datelastupdated: row.user_datelastupdated,
  },
});

export type ForumData = ReturnType<typeof createForumData>;

export function createForumData(pool: Pool, timeoutMs = DB_TIMEOUT_MS) {
  const select = async (sql: string, params: (number | string)[]): Promise<Row[]> => (await pool.execute<Row[]>({ sql, timeout: timeoutMs }, params))[0];
  return {
    /** The comment, or null. */
    async commentById(id: number): Promise<ForumComment | null> {
      const [row] = await select(SQL.commentById, [id]);
      return row === undefined ? null : toComment(row);
    },

    /** The first `limit` comments by comment_id. */
    async commentsByLimit(limit: number): Promise<ForumComment[]> {
      return (await select(SQL.commentsByLimit, [String(limit)])).map(toComment);
    },

    /** The user's first comment with the user, or null (no such user, or no comment). */
    async firstCommentOfUser(userId: number): Promise<ForumCommentWithUser | null> {
      const [row] = await select(SQL.firstCommentOfUser, [userId]);
      return row === undefined ? null : toCommentWithUser(row);
    },

    /** The user's first `limit` comments with the user; [] for a user without comments, null for no such user. */
    async commentsOfUser(userId: number, limit: number): Promise<ForumCommentWithUser[] | null> {
      const rows = await select(SQL.commentsOfUser, [userId, String(limit)]);
      // Only an empty join needs the second statement.
      if (rows.length === 0 && (await select(SQL.userExists, [userId])).length === 0) return null;
      return rows.map(toCommentWithUser);
    },
  };
}
