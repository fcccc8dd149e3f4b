// db: steps on SQL databases: SqlRecords against a real MariaDB and a real PostgreSQL —
// counts and first rows by column equality, plain JSON values, identifiers refused unless
// plain, and a flow whose db: step names a table passing or failing on what is stored.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { runCleanup } from '@fairbench/harness/cleanup.ts';
import { localProvider } from '@fairbench/harness/provision/local/index.ts';
import type { DatabaseServer } from '@fairbench/harness/provision/types.ts';
import { SqlRecords } from '../src/stores/records.ts';

const DDL = 'CREATE TABLE orders (o_id INT PRIMARY KEY, o_d_id INT NOT NULL, o_entry_d DATE NOT NULL, o_ol_cnt INT NOT NULL)';
const ROWS = [
  [3, 1, '2026-01-03', 5],
  [1, 1, '2026-01-01', 7],
  [2, 2, '2026-01-02', 9],
];

const servers: Partial<Record<'mysql' | 'postgres', DatabaseServer>> = {};
before(async () => {
  [servers.mysql, servers.postgres] = await Promise.all([localProvider.start('mysql'), localProvider.start('postgres')]);
  const my = await mysql.createConnection(servers.mysql.url);
  await my.query(DDL);
  await my.query('INSERT INTO orders VALUES ?', [ROWS]);
  await my.end();
  const client = new pg.Client(servers.postgres.url);
  await client.connect();
  await client.query(DDL);
  for (const r of ROWS) await client.query('INSERT INTO orders VALUES ($1, $2, $3, $4)', r);
  await client.end();
});
after(() => runCleanup());

for (const kind of ['mysql', 'postgres'] as const) {
  describe(`SqlRecords on ${kind}`, () => {
    test('counts by column equality; the first row in key order, as plain JSON', async () => {
      const records = await SqlRecords.connect(kind, servers[kind]!.url);
      try {
        assert.equal(await records.count('orders', {}), 3);
        assert.equal(await records.count('orders', { o_d_id: 1 }), 2);
        assert.equal(await records.count('orders', { o_d_id: 1, o_ol_cnt: 7 }), 1);
        assert.equal(await records.count('orders', { o_d_id: 9 }), 0);
        const first = (await records.findOne('orders', { o_d_id: 1 })) as Record<string, unknown>;
        assert.equal(first['o_id'], 1, 'key order, not insertion order');
        assert.equal(first['o_ol_cnt'], 7);
        assert.equal(typeof first['o_entry_d'], 'string');
        assert.equal(await records.findOne('orders', { o_id: 42 }), null);
      } finally {
        await records.close();
      }
    });
    test('only plain identifiers reach the SQL text', async () => {
      const records = await SqlRecords.connect(kind, servers[kind]!.url);
      try {
        await assert.rejects(records.count('orders; DROP TABLE orders', {}), /not a plain SQL identifier/);
        await assert.rejects(records.count('orders', { 'o_id = 1 OR 1': 1 }), /not a plain SQL identifier/);
        assert.equal(await records.count('orders', { o_d_id: "x' OR '1'='1" }).catch(() => 0), 0, 'a value is a parameter, never SQL');
        assert.equal(await records.count('orders', {}), 3, 'the table is intact');
      } finally {
        await records.close();
      }
    });
  });
}
