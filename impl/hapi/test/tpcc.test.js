// The tpcc API without a database: exact money, the transaction runner over a fake mysql2
// pool (retries, deadline, rollback, connections released or destroyed), and the routes over
// server.inject with a stand-in data layer (joi bodies, problems). The SQL itself runs
// against MariaDB in the conformance suite.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { createServer } from '../src/app.js';
import { DatabaseTimeout } from '../src/db-timeouts.js';
import { ATTEMPTS, TransactionBusy, transactions } from '../src/data/mysql-transaction.js';
import { TpccItemNotFound, TpccNotFound, timestamp } from '../src/data/tpcc.js';
import { asMoney, decimalText, divideRounded, toCents, toTenThousandths } from '../src/data/tpcc-money.js';

test('money is computed in integer cents and ten-thousandths', () => {
  assert.deepEqual(['12.34', '-10.00', '0.5', '7', '-0.01'].map(toCents), [1234, -1000, 50, 700, -1]);
  assert.deepEqual(['0.1234', '.05', '0.0001'].map(toTenThousandths), [1234, 500, 1]);
  assert.deepEqual([1234, -1000, 5, -1, 0].map(decimalText), ['12.34', '-10.00', '0.05', '-0.01', '0.00']);
  assert.equal(asMoney(1999), 19.99);
  assert.deepEqual([[5, 2], [-5, 2], [4, 3], [-4, 3], [7, 7]].map(([a, b]) => divideRounded(a, b)), [3, -3, 1, -1, 1]);
  assert.throws(() => toCents('1.234'), /not an amount/);
  assert.throws(() => toTenThousandths('1.5'), /not a rate/);
  assert.match(timestamp(new Date(Date.UTC(2026, 0, 2, 3, 4, 5))), /^2026-01-02 03:04:05$/);
});

/** A mysql2-like pool whose connections record their statements; `fail(statement)` may throw or stall. */
function fakePool({ fail = () => {}, checkoutMs = 0 } = {}) {
  const pool = new EventEmitter();
  pool.log = [];
  pool.released = 0;
  pool.destroyed = 0;
  pool.getConnection = async () => {
    if (checkoutMs) await new Promise((resolve) => setTimeout(resolve, checkoutMs));
    return {
      async query(statement) {
        const sql = typeof statement === 'string' ? statement : statement.sql;
        pool.log.push(sql);
        await fail(sql);
      },
      release() { pool.released++; },
      destroy() { pool.destroyed++; },
    };
  };
  return pool;
}
const deadlock = () => Object.assign(new Error('Deadlock found'), { errno: 1213 });

test('a transaction commits and releases its connection; a refusal rolls back', async () => {
  const pool = fakePool();
  const run = transactions(pool, 500);
  assert.equal(await run(async (c) => { await c.query('WORK'); return 42; }), 42);
  assert.deepEqual(pool.log, ['START TRANSACTION', 'WORK', 'COMMIT']);
  await assert.rejects(run(async () => { throw new TpccNotFound('no such warehouse'); }), TpccNotFound);
  assert.deepEqual(pool.log.slice(3), ['START TRANSACTION', 'ROLLBACK']);
  await run(async () => 1, { readOnly: true });
  assert.equal(pool.log.at(-2), 'START TRANSACTION READ ONLY');
  assert.deepEqual([pool.released, pool.destroyed], [3, 0]);
});

test('deadlocks are retried, the whole transaction, then TransactionBusy', async () => {
  const pool = fakePool();
  let tries = 0;
  const run = transactions(pool, 500);
  assert.equal(await run(async () => { if (++tries < ATTEMPTS) throw deadlock(); return 'done'; }), 'done');
  assert.equal(tries, ATTEMPTS);
  tries = 0;
  await assert.rejects(run(async () => { tries++; throw deadlock(); }), TransactionBusy);
  assert.equal(tries, ATTEMPTS);
  await assert.rejects(run(async () => { throw Object.assign(new Error('syntax'), { errno: 1064 }); }), /syntax/);
  assert.equal(pool.log.filter((s) => s === 'ROLLBACK').length, ATTEMPTS - 1 + ATTEMPTS + 1);
});

test('past the deadline the answer is a DatabaseTimeout at once and the connection is destroyed', async () => {
  const stalled = fakePool({ fail: (sql) => (sql === 'WORK' ? new Promise(() => {}) : undefined) });
  const started = Date.now();
  await assert.rejects(transactions(stalled, 100)(async (c) => c.query('WORK')), DatabaseTimeout);
  assert.ok(Date.now() - started < 1000);
  assert.deepEqual([stalled.released, stalled.destroyed], [0, 1]);
  assert.equal(stalled.log.includes('ROLLBACK'), false);
  // The checkout counts: a connection that comes too late goes back unused.
  const slow = fakePool({ checkoutMs: 200 });
  await assert.rejects(transactions(slow, 50)(async () => 1), DatabaseTimeout);
  await new Promise((resolve) => setTimeout(resolve, 250));
  assert.deepEqual([slow.released, slow.log.length], [1, 0]);
});

test('every new connection is set to REPEATABLE READ', () => {
  const pool = fakePool();
  transactions(pool, 500);
  const sent = [];
  pool.emit('connection', { query: (statement) => sent.push(statement.sql) });
  assert.deepEqual(sent, ['SET SESSION TRANSACTION ISOLATION LEVEL REPEATABLE READ']);
});

const LINE = { ol_i_id: 1, ol_supply_w_id: 1, ol_quantity: 5 };
const BODIES = {
  'new-order': { w_id: 1, d_id: 1, c_id: 1, items: Array(5).fill(LINE) },
  payment: { w_id: 1, d_id: 1, c_w_id: 1, c_d_id: 1, c_last: 'BARBARABLE', h_amount: 19.999 },
  'order-status': { w_id: 1, d_id: 1, c_id: 7 },
  delivery: { w_id: 1, o_carrier_id: 3 },
  'stock-level': { w_id: 1, d_id: 1, threshold: 15 },
};

async function tpccServer(behaviour) {
  const seen = [];
  const handler = (name) => async (input, amount) => {
    seen.push([name, input, amount]);
    return behaviour(name, input);
  };
  const data = Object.fromEntries(['newOrder', 'payment', 'orderStatus', 'delivery', 'stockLevel'].map((n) => [n, handler(n)]));
  const server = await createServer({ port: 0, host: '127.0.0.1', apis: { tpcc: data } });
  const post = (path, body, headers = { 'content-type': 'application/json' }) =>
    server.inject({ method: 'POST', url: `/tpcc/${path}`, payload: typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body), headers });
  return { server, post, seen };
}

function expectProblem(res, status, type) {
  assert.equal(res.statusCode, status, res.payload);
  assert.match(res.headers['content-type'], /^application\/problem\+json/);
  assert.equal(JSON.parse(res.payload).type, `urn:fairbench:problem:${type}`);
  assert.match(res.headers['server-timing'], /^app;dur=\d+\.\d{3}$/);
}

test('valid bodies reach their transaction; payment gets the amount in cents', async () => {
  const { post, seen } = await tpccServer((name) => ({ answered: name }));
  for (const [path, body] of Object.entries(BODIES)) {
    const res = await post(path, body);
    assert.equal(res.statusCode, 200, res.payload);
    assert.match(res.headers['server-timing'], /^app;dur=/);
  }
  assert.deepEqual(seen.map(([name]) => name), ['newOrder', 'payment', 'orderStatus', 'delivery', 'stockLevel']);
  assert.equal(seen[1][2], 2000);
});

test('bad bodies are 400 invalid-body before any transaction; bytes are 413, 415, malformed', async () => {
  const { post, seen } = await tpccServer(() => ({}));
  const bad = {
    'new-order': [{ ...BODIES['new-order'], items: Array(4).fill(LINE) }, { ...BODIES['new-order'], items: Array(16).fill(LINE) }, { ...BODIES['new-order'], d_id: 11 }, { ...BODIES['new-order'], c_id: 3001 }, { ...BODIES['new-order'], w_id: '1' }, { ...BODIES['new-order'], extra: 1 }, { ...BODIES['new-order'], items: [...Array(4).fill(LINE), { ...LINE, ol_quantity: 11 }] }],
    payment: [{ ...BODIES.payment, c_id: 1 }, { w_id: 1, d_id: 1, c_w_id: 1, c_d_id: 1, h_amount: 5 }, { ...BODIES.payment, c_last: "X' OR 1=1 --" }, { ...BODIES.payment, h_amount: 5000.01 }, { ...BODIES.payment, h_amount: 0.99 }],
    'order-status': [{ w_id: 1, d_id: 1 }, { ...BODIES['order-status'], c_last: 'ABLE' }, { ...BODIES['order-status'], c_id: 1.5 }, { w_id: 1, d_id: 1, c_last: 'ABLE\n' }],
    delivery: [{ w_id: 1, o_carrier_id: 11 }, { w_id: 0, o_carrier_id: 1 }, { w_id: 2147483648, o_carrier_id: 1 }],
    'stock-level': [{ ...BODIES['stock-level'], threshold: 9 }, { ...BODIES['stock-level'], threshold: 21 }],
  };
  for (const [path, bodies] of Object.entries(bad)) for (const body of bodies) expectProblem(await post(path, body), 400, 'invalid-body');
  for (const body of ['[]', 'null', '5', '"text"', '']) expectProblem(await post('delivery', body), 400, 'invalid-body');
  expectProblem(await post('delivery', '{"w_id": 1,'), 400, 'malformed-body');
  // Bytes that are not UTF-8 (issue 51): Hapi's parser would make them U+FFFD, and the last name invalid.
  for (const bytes of [[0xff, 0xfe], [0xc3], [0xc0, 0xae], [0xed, 0xa0, 0x80]]) {
    expectProblem(await post('order-status', Buffer.concat([Buffer.from('{"w_id":1,"d_id":1,"c_last":"ABLE'), Buffer.from(bytes), Buffer.from('"}')])), 400, 'malformed-body');
  }
  expectProblem(await post('delivery', { w_id: 1, o_carrier_id: 1, pad: 'x'.repeat(17 * 1024) }), 413, 'payload-too-large');
  expectProblem(await post('delivery', 'w_id=1', { 'content-type': 'application/x-www-form-urlencoded' }), 415, 'unsupported-media-type');
  expectProblem(await post('delivery', JSON.stringify(BODIES.delivery), {}), 415, 'unsupported-media-type');
  assert.equal(seen.length, 0);
});

test('the data layer\'s refusals are problems: 404s, a busy 503 with Retry-After, a stalled 503, a bug 500', async () => {
  const errors = {
    newOrder: new TpccItemNotFound('Item number is not valid'),
    payment: new TpccNotFound('no customer is named BARBARABLE'),
    orderStatus: new TransactionBusy('deadlock 3 times'),
    delivery: new DatabaseTimeout('deadline'),
    stockLevel: new TypeError('a bug'),
  };
  const { server, post } = await tpccServer((name) => { throw errors[name]; });
  const itemNotFound = await post('new-order', BODIES['new-order']);
  expectProblem(itemNotFound, 404, 'item-not-found');
  assert.equal(JSON.parse(itemNotFound.payload).detail, 'Item number is not valid');
  expectProblem(await post('payment', BODIES.payment), 404, 'not-found');
  const busy = await post('order-status', BODIES['order-status']);
  expectProblem(busy, 503, 'unavailable');
  assert.equal(busy.headers['retry-after'], '1');
  expectProblem(await post('delivery', BODIES.delivery), 503, 'unavailable');
  const original = process.stderr.write;
  process.stderr.write = () => true;
  try {
    expectProblem(await post('stock-level', BODIES['stock-level']), 500, 'internal');
  } finally {
    process.stderr.write = original;
  }
  for (const path of Object.keys(BODIES)) {
    const res = await server.inject({ method: 'GET', url: `/tpcc/${path}` });
    expectProblem(res, 405, 'method-not-allowed');
    assert.equal(res.headers.allow, 'POST');
  }
  expectProblem(await server.inject({ method: 'POST', url: '/tpcc/new-order/' }), 404, 'not-found');
});
