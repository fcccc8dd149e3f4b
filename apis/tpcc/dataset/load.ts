// Creates the nine tables (schema.sql) and bulk-loads a generated data set into MySQL or
// MariaDB: multi-row INSERTs, each table in one transaction, in primary-key order, with
// three connections at once so that Node formats the next batch while the server stores
// the previous one. Then ANALYZE, so every run starts from the same query plans.
import { readFile } from 'node:fs/promises';
import mysql from 'mysql2/promise';
import type { LoadReport } from '@fairbench/harness/api/dataset.ts';
import { insertRows } from '@fairbench/harness/api/mysql-rows.ts';
import { TABLES, type TableName, type TpccDataset } from './model.ts';

const SCHEMA = new URL('./schema.sql', import.meta.url);
const BATCH_ROWS = 2000;

// The big tables each get a connection of their own; the small ones share the third.
const LANES: readonly (readonly TableName[])[] = [['order_line'], ['stock'], ['item', 'warehouse', 'district', 'customer', 'history', 'orders', 'new_order']];

export async function loadTpcc(mysqlUrl: string, data: TpccDataset): Promise<LoadReport> {
  const started = performance.now();
  const connections = await Promise.all(LANES.map(() => mysql.createConnection({ uri: mysqlUrl, multipleStatements: true })));
  try {
    await connections[0]!.query(await readFile(SCHEMA, 'utf8'));
    await Promise.all(
      LANES.map(async (tables, i) => {
        const db = connections[i]!;
        // Primary keys arrive in order and nothing references anything: skip the per-row checks.
        await db.query('SET SESSION unique_checks = 0, foreign_key_checks = 0');
        for (const table of tables) await insertRows(db, table, data.tables[table], BATCH_ROWS);
      }),
    );
    await connections[0]!.query(`ANALYZE TABLE ${TABLES.map((t) => `\`${t}\``).join(', ')}`);
    return { rows: Object.fromEntries(TABLES.map((t) => [t, data.tables[t].length])), milliseconds: performance.now() - started };
  } finally {
    await Promise.all(connections.map((c) => c.end()));
  }
}
