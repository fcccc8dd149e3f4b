// Direct reads of what an implementation stored, for the db: steps of flows. A check
// names a MongoDB collection and filter, or a SQL table and an equality `where`; the
// same two questions are asked either way: how many records match, and what the first
// one holds. Values come back as plain JSON (ids as strings, dates as ISO strings).
import mysql from 'mysql2/promise';
import pg from 'pg';
import type { DatabaseKind } from '@fairbench/harness/provision/types.ts';

export type Filter = Readonly<Record<string, unknown>>;

export interface RecordReader {
  count(source: string, filter: Filter): Promise<number>;
  /** The first matching record (in key order), or null. */
  findOne(source: string, filter: Filter): Promise<unknown>;
}

// Names come from case files: only plain identifiers reach the SQL text, values are parameters.
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

function identifiers(table: string, filter: Filter): string[] {
  const names = [table, ...Object.keys(filter)];
  for (const n of names) if (!IDENTIFIER.test(n)) throw new Error(`db check: '${n}' is not a plain SQL identifier`);
  return names;
}

/** Reads the tables of a MySQL/MariaDB or PostgreSQL database. */
export class SqlRecords implements RecordReader {
  private readonly kind: 'mysql' | 'postgres';
  private readonly query: (sql: string, params: unknown[]) => Promise<Record<string, unknown>[]>;
  readonly close: () => Promise<void>;

  private constructor(kind: 'mysql' | 'postgres', query: SqlRecords['query'], close: () => Promise<void>) {
    this.kind = kind;
    this.query = query;
    this.close = close;
  }

  static async connect(kind: Extract<DatabaseKind, 'mysql' | 'postgres'>, url: string): Promise<SqlRecords> {
    if (kind === 'mysql') {
      const pool = mysql.createPool({ uri: url, connectionLimit: 2, dateStrings: true });
      return new SqlRecords(
        kind,
        async (sql, params) => (await pool.query(sql, params))[0] as Record<string, unknown>[],
        () => pool.end(),
      );
    }
    const pool = new pg.Pool({ connectionString: url, max: 2 });
    // An idle client whose server went away (the run stopping its databases) emits 'error'
    // on the pool; unheard, that would crash the runner. The next query reports a real failure.
    pool.on('error', () => {});
    return new SqlRecords(
      kind,
      async (sql, params) => (await pool.query(sql, params)).rows as Record<string, unknown>[],
      () => pool.end(),
    );
  }

  private where(filter: Filter): { text: string; params: unknown[] } {
    const columns = Object.keys(filter);
    if (columns.length === 0) return { text: '', params: [] };
    const quote = (c: string) => (this.kind === 'mysql' ? `\`${c}\`` : `"${c}"`);
    const parts = columns.map((c, i) => `${quote(c)} = ${this.kind === 'mysql' ? '?' : `$${i + 1}`}`);
    return { text: ` WHERE ${parts.join(' AND ')}`, params: columns.map((c) => filter[c]) };
  }

  private table(name: string): string {
    return this.kind === 'mysql' ? `\`${name}\`` : `"${name}"`;
  }

  async count(table: string, filter: Filter): Promise<number> {
    identifiers(table, filter);
    const w = this.where(filter);
    const rows = await this.query(`SELECT COUNT(*) AS n FROM ${this.table(table)}${w.text}`, w.params);
    return Number(rows[0]?.['n'] ?? 0);
  }

  async findOne(table: string, filter: Filter): Promise<unknown> {
    identifiers(table, filter);
    const w = this.where(filter);
    // ORDER BY 1: the first column, the key in every schema here, so "the first" is stable.
    const rows = await this.query(`SELECT * FROM ${this.table(table)}${w.text} ORDER BY 1 LIMIT 1`, w.params);
    return rows[0] === undefined ? null : plainRow(rows[0]);
  }
}

function plainRow(row: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(row).map(([k, v]) => [k, v instanceof Date ? v.toISOString() : typeof v === 'bigint' ? Number(v) : v]));
}
