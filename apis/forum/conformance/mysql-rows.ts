// RowStore over the forum's MySQL tables: what scenarios change behind the
// implementation's back, and the digest that proves bad input changed nothing.
import mysql from 'mysql2/promise';
import type { Row, RowChange, RowStore } from '@fairbench/conformance/changes.ts';

const PRIMARY_KEYS: Readonly<Record<string, string>> = {
  user: 'user_id',
  category: 'category_id',
  thread: 'thread_id',
  comment: 'comment_id',
};

export class ForumMysqlRows implements RowStore {
  private readonly db: mysql.Connection;

  private constructor(db: mysql.Connection) {
    this.db = db;
  }

  static async connect(url: string): Promise<ForumMysqlRows> {
    const db = await mysql.createConnection({ uri: url, dateStrings: true });
    // The general log (as a table) is how the suite counts the statements an implementation
    // runs per request, whatever its driver: plain queries and prepared executions alike.
    await db.query("SET GLOBAL log_output = 'TABLE', GLOBAL general_log = ON");
    return new ForumMysqlRows(db);
  }

  primaryKey(table: string): string {
    const key = PRIMARY_KEYS[table];
    if (key === undefined) throw new Error(`forum has no table '${table}'`);
    return key;
  }

  async read(table: string, key: number): Promise<Row | null> {
    const [rows] = await this.db.query<mysql.RowDataPacket[]>('SELECT * FROM ?? WHERE ?? = ?', [table, this.primaryKey(table), key]);
    return rows[0] ? { ...rows[0] } : null;
  }

  async write(change: RowChange): Promise<void> {
    if (change.kind === 'delete') {
      await this.db.query('DELETE FROM ?? WHERE ?? = ?', [change.table, this.primaryKey(change.table), change.key]);
    } else {
      await this.db.query('REPLACE INTO ?? SET ?', [change.table, change.row]);
    }
  }

  async digest(): Promise<string> {
    const [rows] = await this.db.query<mysql.RowDataPacket[]>('CHECKSUM TABLE `user`, `category`, `thread`, `comment` EXTENDED');
    return rows.map((r) => `${r['Table']}=${r['Checksum']}`).join(' ');
  }

  async resetStatementCount(): Promise<void> {
    await this.db.query('TRUNCATE mysql.general_log');
  }

  async statementCount(): Promise<number> {
    // Statements of other connections that name a forum table; connection set-up
    // (SET NAMES, SELECT @@version, ...) and our own statements do not count.
    const [rows] = await this.db.query<mysql.RowDataPacket[]>(
      `SELECT COUNT(*) AS n FROM mysql.general_log
       WHERE thread_id <> CONNECTION_ID() AND command_type IN ('Query', 'Execute')
         AND CONVERT(argument USING utf8mb4) REGEXP '\\\\b(comment|user|thread|category)\\\\b'`,
    );
    return Number(rows[0]?.['n'] ?? 0);
  }

  async close(): Promise<void> {
    await this.db.query('SET GLOBAL general_log = OFF');
    await this.db.end();
  }
}
