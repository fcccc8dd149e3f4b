// The tpcc API without a database: body validation and problem mapping over a fake data
// layer, exact money, and the transaction wrapper's rollback and deadlock retries over a
// fake pool (the real transactions run against MariaDB in the conformance suite).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildApp } from '../src/app.js';
import { TpccBusy, TpccItemNotFound, TpccNotFound, createTpccData } from '../src/data/tpcc.js';
import { cents, centsText, roundDiv, tenThousandths } from '../src/data/tpcc-money.js';

const lines = (n) => Array.from({ length: n }, (_, i) => ({ ol_i_id: i + 1, ol_supply_w_id: 1, ol_quantity: 1 }));

function fakeData() {
  const calls = [];
  const answer = (name) => async (body, extra) => {
    calls.push({ name, body, extra });
    if (body.w_id === 404) throw new TpccNotFound('warehouse 404 does not exist');
    if (body.w_id === 405) throw new TpccItemNotFound('Item number is not valid');
    if (body.w_id === 503) throw new TpccBusy('deadlocks');
    if (body.w_id === 500) throw new Error('the database went away');
    return { name };
  };
  return { calls, newOrder: answer('newOrder'), payment: answer('payment'), orderStatus: answer('orderStatus'), delivery: answer('delivery'), stockLevel: answer('stockLevel') };
}

let server;
let base;
let data;
before(async () => {
  data = fakeData();
  server = buildApp({ tpcc: data }).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  base = `http://127.0.0.1:${server.address().port}`;
});
after(() => server.close());

const post = (path, body) => fetch(base + path, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });

async function problem(res, status, type) {
  assert.equal(res.status, status);
  assert.match(res.headers.get('content-type'), /^application\/problem\+json/);
  assert.equal((await res.json()).type, `urn:fairbench:problem:${type}`);
}

test('valid bodies reach the data layer; the payment amount arrives in cents', async () => {
  assert.equal((await post('/tpcc/new-order', { w_id: 1, d_id: 1, c_id: 1, items: lines(15) })).status, 200);
  assert.equal((await post('/tpcc/payment', { w_id: 1, d_id: 1, c_w_id: 2, c_d_id: 3, c_last: 'BARBARBAR', h_amount: 1234.56 })).status, 200);
  assert.equal((await post('/tpcc/order-status', { w_id: 1, d_id: 1, c_id: 3000 })).status, 200);
  assert.equal((await post('/tpcc/delivery', { w_id: 1, o_carrier_id: 10 })).status, 200);
  assert.equal((await post('/tpcc/stock-level', { w_id: 1, d_id: 10, threshold: 20 })).status, 200);
  assert.deepEqual(data.calls.map((c) => c.name), ['newOrder', 'payment', 'orderStatus', 'delivery', 'stockLevel']);
  assert.equal(data.calls[1].extra, 123456);
});

test('bodies outside TPC-C ranges are 400 invalid-body, and never reach the data layer', async () => {
  const before = data.calls.length;
  for (const [path, body] of [
    ['/tpcc/new-order', { w_id: 1, d_id: 1, c_id: 1, items: lines(4) }],
    ['/tpcc/new-order', { w_id: 1, d_id: 1, c_id: 1, items: lines(16) }],
    ['/tpcc/new-order', { w_id: 1, d_id: 1, c_id: 1, items: [...lines(4), { ol_i_id: 9, ol_supply_w_id: 1, ol_quantity: -1 }] }],
    ['/tpcc/new-order', { w_id: '1', d_id: 1, c_id: 1, items: lines(5) }],
    ['/tpcc/payment', { w_id: 1, d_id: 1, c_w_id: 1, c_d_id: 1, c_id: 1, c_last: 'BAR', h_amount: 5 }],
    ['/tpcc/payment', { w_id: 1, d_id: 1, c_w_id: 1, c_d_id: 1, c_last: "BAR' OR 1=1 --", h_amount: 5 }],
    ['/tpcc/payment', { w_id: 1, d_id: 1, c_w_id: 1, c_d_id: 1, c_id: 1, h_amount: 5000.01 }],
    ['/tpcc/order-status', { w_id: 1, d_id: 11, c_id: 1 }],
    ['/tpcc/delivery', { w_id: 1, o_carrier_id: 0 }],
    ['/tpcc/stock-level', { w_id: 1, d_id: 1, threshold: 21 }],
    ['/tpcc/order-status', { w_id: 1, d_id: 1, c_last: 'BARBARBAR\n' }],
  ]) {
    await problem(await post(path, body), 400, 'invalid-body');
  }
  assert.equal(data.calls.length, before);
});

test('a body that is not UTF-8 is 400 malformed-body, not U+FFFD in a wrong-typed member (issue 51)', async () => {
  const before = data.calls.length;
  for (const bytes of [[0xff, 0xfe], [0xc3], [0xc0, 0xae], [0xed, 0xa0, 0x80]]) {
    const body = Buffer.concat([Buffer.from('{"w_id":1,"d_id":1,"c_last":"ABLE'), Buffer.from(bytes), Buffer.from('"}')]);
    await problem(await fetch(base + '/tpcc/order-status', { method: 'POST', body, headers: { 'content-type': 'application/json' } }), 400, 'malformed-body');
  }
  assert.equal(data.calls.length, before);
});

test("the data layer's refusals become problems: not-found, item-not-found, unavailable with Retry-After; anything else a 500", async () => {
  await problem(await post('/tpcc/stock-level', { w_id: 404, d_id: 1, threshold: 15 }), 404, 'not-found');
  await problem(await post('/tpcc/new-order', { w_id: 405, d_id: 1, c_id: 1, items: lines(5) }), 404, 'item-not-found');
  const busy = await post('/tpcc/delivery', { w_id: 503, o_carrier_id: 1 });
  assert.equal(busy.headers.get('retry-after'), '1');
  await problem(busy, 503, 'unavailable');
  await problem(await post('/tpcc/delivery', { w_id: 500, o_carrier_id: 1 }), 500, 'internal');
});

test('money is exact: cents in and out, total rounded half away from zero', () => {
  assert.equal(cents('-10.00'), -1000);
  assert.equal(cents('75.76'), 7576);
  assert.equal(centsText(-2234), '-22.34');
  assert.equal(centsText(5), '0.05');
  assert.equal(tenThousandths('0.0790'), 790);
  assert.equal(roundDiv(5, 10), 1);
  assert.equal(roundDiv(-5, 10), -1);
  assert.equal(roundDiv(4, 10), 0);
});

/** A pool whose connections fail the first `failures` transactions with a MySQL error. */
function fakePool(failures, errno = 1213) {
  const log = [];
  let left = failures;
  const connection = {
    async query(sql) {
      log.push(sql);
      return [[]];
    },
    async execute(sql) {
      log.push(sql);
      if (left > 0) {
        left -= 1;
        throw Object.assign(new Error('Deadlock found when trying to get lock'), { errno });
      }
      return [[{ d_next_o_id: 3001 }]];
    },
    release: () => log.push('release'),
    destroy: () => log.push('destroy'),
  };
  return { log, on() {}, getConnection: async () => connection };
}

test('a deadlock rolls back and runs the transaction again, three attempts in all; then TpccBusy', async () => {
  const twice = fakePool(2);
  const result = await createTpccData(twice).stockLevel({ w_id: 1, d_id: 1, threshold: 15 }).catch((e) => e);
  // The third attempt got past the first statement (the fake answers every later one alike).
  assert.ok(!(result instanceof TpccBusy), String(result));
  assert.equal(twice.log.filter((s) => s === 'ROLLBACK').length, 2);
  assert.equal(twice.log.filter((s) => s.startsWith('START TRANSACTION')).length, 3);

  const always = fakePool(3, 1205);
  await assert.rejects(createTpccData(always).stockLevel({ w_id: 1, d_id: 1, threshold: 15 }), TpccBusy);
  assert.equal(always.log.filter((s) => s === 'ROLLBACK').length, 3);
  assert.equal(always.log.filter((s) => s === 'release').length, 3);

  // Any other error is not retried.
  const other = fakePool(1, 1062);
  await assert.rejects(createTpccData(other).stockLevel({ w_id: 1, d_id: 1, threshold: 15 }), /Deadlock found/);
  assert.equal(other.log.filter((s) => s.startsWith('START TRANSACTION')).length, 1);
});
