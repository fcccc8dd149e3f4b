// Loads a generated sports data set into PostgreSQL. The first load (or one after
// schema.sql changed) runs schema.sql; later loads — the resets between conformance flows
// and benchmark repetitions — empty the tables with TRUNCATE instead, so the tables an
// implementation's pool has prepared statements on stay the same objects. Then multi-row
// INSERTs, each identity sequence moved past the seeded ids, and ANALYZE.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import pg from 'pg';
import type { LoadReport } from '@fairbench/harness/api/dataset.ts';
import { TABLES, type SportsDataset, type TableName } from './model.ts';

const SCHEMA = new URL('./schema.sql', import.meta.url);
// PostgreSQL allows 65,535 parameters a statement; 1,000 rows of at most 7 columns stay well below.
const BATCH_ROWS = 1000;

async function insertRows(db: pg.Client, table: TableName, rows: readonly object[]): Promise<void> {
  if (rows.length === 0) return;
  const columns = Object.keys(rows[0]!);
  for (let i = 0; i < rows.length; i += BATCH_ROWS) {
    const batch = rows.slice(i, i + BATCH_ROWS);
    const values: unknown[] = [];
    const tuples = batch.map((row) => {
      const start = values.length;
      values.push(...Object.values(row));
      return `(${columns.map((_, c) => `$${start + c + 1}`).join(', ')})`;
    });
    await db.query(`INSERT INTO ${table} (${columns.map((c) => `"${c}"`).join(', ')}) VALUES ${tuples.join(', ')}`, values);
  }
}

export async function loadSports(postgresUrl: string, data: SportsDataset): Promise<LoadReport> {
  const started = performance.now();
  const schema = await readFile(SCHEMA, 'utf8');
  const version = `schema:${createHash('sha256').update(schema).digest('hex').slice(0, 16)}`;
  const db = new pg.Client({ connectionString: postgresUrl });
  await db.connect();
  try {
    const current = await db.query<{ comment: string | null }>("SELECT obj_description(to_regclass('public.app_user'), 'pg_class') AS comment");
    await db.query('BEGIN');
    if (current.rows[0]?.comment === version) {
      await db.query(`TRUNCATE ${TABLES.join(', ')} RESTART IDENTITY`);
    } else {
      await db.query(schema);
      await db.query(`COMMENT ON TABLE app_user IS '${version}'`);
    }
    for (const table of TABLES) await insertRows(db, table, data.tables[table]);
    for (const table of TABLES.filter((t) => t !== 'rating')) {
      await db.query(`SELECT setval(pg_get_serial_sequence('${table}', 'id'), COALESCE(MAX(id), 0) + 1, false) FROM ${table}`);
    }
    await db.query('COMMIT');
    await db.query(`ANALYZE ${TABLES.join(', ')}`);
    return { rows: Object.fromEntries(TABLES.map((t) => [t, data.tables[t].length])), milliseconds: performance.now() - started };
  } catch (err) {
    await db.query('ROLLBACK').catch(() => {});
    throw err;
  } finally {
    await db.end();
  }
}
