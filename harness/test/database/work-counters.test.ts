// The work counters against the real local servers: a known request's work is what each
// engine counts (one row read by primary key, one row changed), in the database that did it
// and not in its sibling, and two readings with nothing between them differ by nothing
// (the reader's own statements are taken out). The pure difference: the last tests.
import assert from 'node:assert/strict';
import { after, describe, test, type TestContext } from 'node:test';
import { MongoClient } from 'mongodb';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { runCleanup } from '../../src/cleanup.ts';
import { localProvider } from '../../src/provision/local/index.ts';
import { siblingDatabase } from '../../src/provision/sibling.ts';
import { openWorkReader, workDifference, type WorkDifference, type WorkReader, type WorkSnapshot } from '../../src/work/index.ts';

after(() => runCleanup());

/** The counters that moved, by name. */
const moved = (d: WorkDifference): Record<string, number> =>
  Object.fromEntries(Object.entries(d.counters).flatMap(([name, c]) => (c.value === 0 ? [] : [[name, c.value]])));

async function around(reader: WorkReader, work: () => Promise<unknown>): Promise<WorkDifference> {
  const before = await reader.snapshot();
  await work();
  return workDifference(before, await reader.snapshot());
}

describe('work counters on the local servers', { concurrency: false }, () => {
  test('MariaDB: rows per schema (userstat), statements and handler calls server-wide', async (t: TestContext) => {
    const server = await localProvider.start('mysql');
    try {
      const sibling = await siblingDatabase(server, 'fairbench_2');
      const [a, b] = [await mysql.createConnection(server.url), await mysql.createConnection(sibling.url)];
      for (const c of [a, b]) {
        await c.query('CREATE TABLE t (id INT PRIMARY KEY, v INT)');
        await c.query('INSERT INTO t SELECT seq, seq FROM seq_1_to_1000');
      }
      const [ra, rb] = [await openWorkReader(server), await openWorkReader(sibling)];
      assert.deepEqual(moved(await around(ra, async () => {})), {}, 'nothing between two readings');
      const one = await around(ra, () => a.execute('SELECT * FROM t WHERE id = ?', [5]));
      t.diagnostic(`one SELECT by primary key: ${JSON.stringify(moved(one))}`);
      assert.equal(one.counters['table_statistics.rows_read']?.value, 1);
      assert.equal(one.counters['table_statistics.rows_read']?.scope, 'database');
      assert.equal(one.counters['table_statistics.rows_changed']?.value, 0);
      assert.equal(one.counters['Com_select']?.value, 1);
      assert.equal(one.counters['Com_select']?.scope, 'server');
      assert.equal(one.counters['Handler_read_key']?.value, 1);
      const update = await around(rb, () => b.execute('UPDATE t SET v = v + 1 WHERE id = ?', [7]));
      t.diagnostic(`one UPDATE by primary key in the sibling: ${JSON.stringify(moved(update))}`);
      assert.equal(update.counters['table_statistics.rows_changed']?.value, 1);
      assert.equal(update.counters['Com_update']?.value, 1);
      const other = await around(ra, () => b.execute('SELECT * FROM t WHERE id < ?', [11]));
      assert.equal(other.counters['table_statistics.rows_read']?.value, 0, "the sibling's reads are not this database's");
      assert.equal(other.counters['Com_select']?.value, 1, 'but the statement is in the server-wide count');
      await Promise.all([a.end(), b.end(), ra.close(), rb.close()]);
    } finally {
      await server.stop();
    }
  });

  test('PostgreSQL: pg_stat_database (once flushed) and pg_stat_statements, of this database alone', async (t: TestContext) => {
    const server = await localProvider.start('postgres');
    try {
      const sibling = await siblingDatabase(server, 'fairbench_2');
      const a = new pg.Client({ connectionString: server.url });
      const b = new pg.Client({ connectionString: sibling.url });
      await Promise.all([a.connect(), b.connect()]);
      for (const c of [a, b]) await c.query('CREATE TABLE t (id INT PRIMARY KEY, v INT); INSERT INTO t SELECT g, g FROM generate_series(1, 1000) g');
      // A backend reports its counts at most once a second: each client here forces its own
      // report after its work (and once before, so that the function's catalog lookups are done).
      const flushed = (c: pg.Client) => c.query('SELECT pg_stat_force_next_flush()');
      const pk = { name: 'pk', text: 'SELECT * FROM t WHERE id = $1' };
      await Promise.all([flushed(a), flushed(b), a.query({ ...pk, values: [1] }), b.query({ ...pk, values: [1] })]);
      await Promise.all([flushed(a), flushed(b)]);
      const [ra, rb] = [await openWorkReader(server), await openWorkReader(sibling)];
      assert.deepEqual(moved(await around(ra, async () => {})), {}, 'nothing between two readings');
      const one = await around(ra, async () => {
        await a.query({ ...pk, values: [5] });
        await flushed(a);
      });
      t.diagnostic(`one SELECT by primary key, then the flush's SELECT: ${JSON.stringify(moved(one))}`);
      assert.equal(one.counters['statements.select']?.value, 2);
      assert.equal(one.counters['statements.select.rows']?.value, 2);
      assert.equal(one.counters['xact_commit']?.value, 2);
      assert.equal(one.counters['tup_fetched']?.value, 1);
      assert.equal(one.counters['tup_returned']?.value, 1);
      assert.equal(one.counters['tup_returned']?.lagMs, 1_000, 'pg_stat_database trails the work');
      assert.equal(one.counters['statements']?.value, 2);
      assert.equal(one.counters['statements']?.lagMs, undefined, 'pg_stat_statements does not');
      const update = await around(rb, async () => {
        await b.query('BEGIN');
        await b.query('UPDATE t SET v = v + 1 WHERE id = $1', [7]);
        await b.query('COMMIT');
        await flushed(b);
      });
      t.diagnostic(`one UPDATE in a transaction in the sibling: ${JSON.stringify(moved(update))}`);
      assert.equal(update.counters['tup_updated']?.value, 1);
      assert.equal(update.counters['statements.update']?.value, 1);
      assert.equal(update.counters['statements.update.rows']?.value, 1);
      assert.equal(update.counters['statements.begin']?.value, 1);
      assert.equal(update.counters['statements.commit']?.value, 1);
      const other = await around(ra, async () => {
        await b.query({ ...pk, values: [9] });
        await flushed(b);
      });
      assert.deepEqual(moved(other), {}, "the sibling's work is in none of this database's counters");
      await Promise.all([a.end(), b.end(), ra.close(), rb.close()]);
    } finally {
      await server.stop();
    }
  });

  test('FerretDB: commands handled, server-wide only', async (t: TestContext) => {
    const server = await localProvider.start('mongo');
    try {
      const client = new MongoClient(server.url, { directConnection: true });
      await client.connect();
      const docs = client.db().collection<{ _id: number; v: number }>('t');
      await docs.insertMany(Array.from({ length: 100 }, (_, i) => ({ _id: i + 1, v: i + 1 })));
      const reader = await openWorkReader(server);
      assert.deepEqual(moved(await around(reader, async () => {})), {}, 'nothing between two readings');
      const one = await around(reader, () => docs.findOne({ _id: 5 }));
      t.diagnostic(`one findOne by _id: ${JSON.stringify(moved(one))}`);
      assert.deepEqual(moved(one), { 'commands.find': 1, 'commands.read': 1 });
      assert.equal(one.counters['commands.find']?.scope, 'server');
      const update = await around(reader, () =>
        client
          .db('fairbench_2')
          .collection<{ _id: number; v: number }>('t')
          .updateOne({ _id: 1 }, { $set: { v: 2 } }, { upsert: true }),
      );
      assert.deepEqual(moved(update), { 'commands.update': 1, 'commands.write': 1 }, "another database's command is in the server-wide count");
      await Promise.all([client.close(), reader.close()]);
    } finally {
      await server.stop();
    }
  });
});

describe('workDifference', () => {
  const snap = (at: number, counters: WorkSnapshot['counters'], extra: Partial<WorkSnapshot> = {}): WorkSnapshot => ({
    engine: 'E',
    database: 'd',
    readFrom: at,
    at,
    counters,
    unavailable: {},
    readerCost: {},
    ...extra,
  });

  test('subtracts, less the first reading’s own cost, with the window’s length', () => {
    const d = workDifference(
      snap(1_000, { q: { value: 10, scope: 'server' }, r: { value: 5, scope: 'database' } }, { readerCost: { q: 1 } }),
      snap(3_500, { q: { value: 20, scope: 'server' }, r: { value: 5, scope: 'database', lagMs: 1_000 } }),
    );
    assert.deepEqual(d.counters, { q: { value: 9, scope: 'server' }, r: { value: 0, scope: 'database', lagMs: 1_000 } });
    assert.equal(d.seconds, 2.5);
  });

  test('the readings between two are taken out too: a reader reading through a load', () => {
    const cost = { readerCost: { q: 1 } };
    const d = workDifference(snap(0, { q: { value: 10, scope: 'server' } }, cost), snap(3, { q: { value: 20, scope: 'server' } }, cost), [
      snap(1, { q: { value: 13, scope: 'server' } }, cost),
      snap(2, { q: { value: 16, scope: 'server' } }, cost),
    ]);
    assert.equal(d.counters['q']?.value, 7);
  });

  test('a counter that went back, or is in one reading only, is unavailable, not negative work', () => {
    const d = workDifference(
      snap(0, { q: { value: 10, scope: 'server' }, old: { value: 1, scope: 'server' } }),
      snap(1, { q: { value: 3, scope: 'server' }, neu: { value: 1, scope: 'server' } }),
    );
    assert.deepEqual(d.counters, {});
    assert.match(d.unavailable['q']!, /went back from 10 to 3/);
    assert.match(d.unavailable['old']!, /not in the second/);
    assert.match(d.unavailable['neu']!, /not in the first/);
  });

  test('refuses readings of two databases', () => {
    assert.throws(() => workDifference(snap(0, {}), snap(1, {}, { database: 'other' })), /not the same database/);
  });
});
