// Loads TPC-C's own scale (W = 1) into a real MariaDB, reports the time, and checks what
// was stored: the row counts, TPC-C's consistency conditions 1-4 (clause 3.3.2) on the
// fresh data, and that a second load of the conformance scale replaces the first.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import mysql from 'mysql2/promise';
import { runCleanup } from '@fairbench/harness/cleanup.ts';
import { localProvider } from '@fairbench/harness/provision/local/index.ts';
import type { DatabaseServer } from '@fairbench/harness/provision/types.ts';
import { consistencyViolations } from '../dataset/consistency.ts';
import { generateTpcc } from '../dataset/generate.ts';
import { loadTpcc } from '../dataset/load.ts';
import { CONFORMANCE_SCALE, PAPER_SCALE, TABLES } from '../dataset/model.ts';

let server: DatabaseServer;
before(async () => {
  server = await localProvider.start('mysql', { database: 'tpcc_load' });
});
after(() => runCleanup());

async function counts(db: mysql.Connection): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const t of TABLES) out[t] = Number((await db.query<mysql.RowDataPacket[]>(`SELECT COUNT(*) AS n FROM \`${t}\``))[0][0]!['n']);
  return out;
}

test('W = 1 at TPC-C scale loads, with every row, and satisfies consistency conditions 1-4', async (t) => {
  const generated = performance.now();
  const data = generateTpcc(PAPER_SCALE);
  const generateMs = performance.now() - generated;
  const report = await loadTpcc(server.url, data);
  t.diagnostic(
    `W=1: generate ${Math.round(generateMs)} ms, load ${Math.round(report.milliseconds)} ms (schema, ${Object.values(report.rows).reduce((a, b) => a + b, 0)} rows, ANALYZE)`,
  );
  const db = await mysql.createConnection(server.url);
  try {
    assert.deepEqual(await counts(db), report.rows);
    assert.deepEqual(report.rows, Object.fromEntries(TABLES.map((name) => [name, data.tables[name].length])));
    assert.deepEqual(await consistencyViolations(db), []);
    // Spot checks that values arrive as generated (decimals, NULLs, the longest strings).
    const [[c]] = await db.query<mysql.RowDataPacket[]>('SELECT c_balance, c_data, c_since FROM customer WHERE c_w_id = 1 AND c_d_id = 7 AND c_id = 2999');
    const expected = data.tables.customer.find((x) => x.c_d_id === 7 && x.c_id === 2999)!;
    assert.deepEqual([String(c!['c_balance']), c!['c_data']], [expected.c_balance, expected.c_data]);
    const [[nulls]] = await db.query<mysql.RowDataPacket[]>('SELECT COUNT(*) AS n FROM order_line WHERE ol_delivery_d IS NULL');
    assert.equal(Number(nulls!['n']), data.tables.order_line.filter((l) => l.ol_delivery_d === null).length);
  } finally {
    await db.end();
  }
});

test('a load replaces what was there: the conformance scale after the full one', async () => {
  const data = generateTpcc(CONFORMANCE_SCALE);
  const report = await loadTpcc(server.url, data);
  const db = await mysql.createConnection(server.url);
  try {
    assert.deepEqual(await counts(db), report.rows);
    assert.equal(report.rows['warehouse'], 2);
    assert.deepEqual(await consistencyViolations(db), []);
    // A broken condition is reported: one district's next order id moved without an order.
    await db.query('UPDATE district SET d_next_o_id = d_next_o_id + 1 WHERE d_w_id = 2 AND d_id = 3');
    await db.query('UPDATE warehouse SET w_ytd = w_ytd + 1 WHERE w_id = 1');
    const violations = await consistencyViolations(db);
    assert.equal(violations.length, 2, violations.join('\n'));
    assert.match(violations[0]!, /^condition 1: warehouse 1 /);
    assert.match(violations[1]!, /^condition 2: warehouse 2 district 3 /);
  } finally {
    await db.end();
  }
});
