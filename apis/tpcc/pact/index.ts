// The tpcc benchmark's contract (make pact): the five transactions' bodies as bench/k6.js
// draws them (customers by id or, 60% of the time, by last name; order lines), and what it
// reads back: a 200 for each — of a committed transaction's screen it checks one field the
// spec requires (in its declared sample), and that a delivery delivered an order — or, for
// the 1% of new orders whose last item is unused, a 404 whose body names item-not-found; and
// Server-Timing on both. The outputs' contents are the conformance suite's business.
import mysql from 'mysql2/promise';
import { MatchersV3 as M, type V3Interaction } from '@pact-foundation/pact';
import { databaseUrl } from '@fairbench/harness/api/dataset.ts';
import type { ConsumerRun, PactModule, StateContext } from '@fairbench/pact/module.ts';
import { CONFORMANCE_SCALE } from '../dataset/model.ts';
import { lastName } from '../dataset/random.js';

const SEEDED = 'warehouse 1 with its districts and customers is seeded';
const UNUSED = 'an item id names no item';
// The consumer runs draw from the conformance scale (one warehouse): its items end at ITEMS, so ITEMS + 1 is unused.
const ITEMS = CONFORMANCE_SCALE.items;
const UNUSED_ITEM = ITEMS + 1;
const ROLLBACK = 'new-order naming an unused item (rolled back)';

const timing = { 'Server-Timing': M.regex('^app;dur=[0-9]+(\\.[0-9]+)?$', 'app;dur=0.250') };
const json = { 'Content-Type': 'application/json' };
const district = { w_id: M.integer(1), d_id: M.integer(1) };
const byId = { c_id: M.integer(1) };
const byName = { c_last: M.string(lastName(0)) };
// An amount in cents whose × 100 is inexact in binary floating point, as most of k6's draws are.
const AMOUNT = 19.99;
const line = (item: number) => ({ ol_i_id: M.integer(item), ol_supply_w_id: M.integer(1), ol_quantity: M.integer(5) });
const lines = (item: number) => M.constrainedArrayLike(line(item), 5, 15);

type Body = V3Interaction['withRequest']['body'];
// screen: the field of the transaction's answer k6 looks for (bench/k6.js SCREEN_FIELD).
const tx = (description: string, path: string, body: Record<string, unknown>, screen: Record<string, unknown>): V3Interaction => ({
  states: [{ description: SEEDED }],
  uponReceiving: description,
  withRequest: { method: 'POST', path: `/tpcc/${path}`, headers: json, body: body as Body },
  willRespondWith: { status: 200, headers: timing, body: screen as Body },
});
const newOrderScreen = { total_amount: M.number(1234.56) };
const paymentScreen = { h_date: M.string('2026-01-01T00:00:00.000Z') };
const orderStatusScreen = { order: M.like({ o_id: M.integer(1) }) };

const interactions: V3Interaction[] = [
  tx('new-order', 'new-order', { ...district, ...byId, items: lines(1) }, newOrderScreen),
  tx('payment by customer id', 'payment', { ...district, c_w_id: M.integer(1), c_d_id: M.integer(1), ...byId, h_amount: M.number(AMOUNT) }, paymentScreen),
  tx('payment by last name', 'payment', { ...district, c_w_id: M.integer(1), c_d_id: M.integer(1), ...byName, h_amount: M.number(AMOUNT) }, paymentScreen),
  tx('order-status by customer id', 'order-status', { ...district, ...byId }, orderStatusScreen),
  tx('order-status by last name', 'order-status', { ...district, ...byName }, orderStatusScreen),
  // On the freshly seeded warehouse every district has undelivered orders: each is delivered,
  // and k6 counts a delivery only when it delivered something (an o_id that is a number).
  {
    ...tx('delivery', 'delivery', { w_id: M.integer(1), o_carrier_id: M.integer(3) }, {}),
    willRespondWith: { status: 200, headers: timing, body: { districts: M.eachLike({ d_id: M.integer(1), o_id: M.integer(2101) }, 10) } },
  },
  tx('stock-level', 'stock-level', { ...district, threshold: M.integer(15) }, { low_stock: M.integer(3) }),
  {
    states: [{ description: UNUSED, parameters: { i_id: UNUSED_ITEM } }],
    uponReceiving: ROLLBACK,
    withRequest: { method: 'POST', path: '/tpcc/new-order', headers: json, body: { ...district, ...byId, items: lines(UNUSED_ITEM) } as Body },
    // k6 looks for item-not-found anywhere in the body: the problem's type says it.
    willRespondWith: {
      status: 404,
      headers: { ...timing, 'Content-Type': M.regex('^application/(problem\\+)?json(;.*)?$', 'application/problem+json') },
      body: { type: M.regex('^.*item-not-found$', 'urn:fairbench:problem:item-not-found') },
    },
  },
];

const scale = {
  WAREHOUSES: 1,
  ITEMS,
  CUSTOMERS: CONFORMANCE_SCALE.customersPerDistrict,
  LAST_NAMES: CONFORMANCE_SCALE.lastNames,
  C_LOAD: 0,
  VUS: 1,
  WARMUP: 0,
  DURATION: 1,
};
const only = (weights: string, requests: number, seed: number) => ({ ...scale, WEIGHTS: weights, REQUESTS: requests, SEED: seed });
// Each transaction alone (the runs' seeds draw no rolled-back order), enough draws to use
// both customer lookups; SEED 27's first transaction is a new order that rolls back.
const runs: ConsumerRun[] = [
  { name: 'new-order', env: only('100,0,0,0,0', 3, 1) },
  { name: 'payment', env: only('0,100,0,0,0', 10, 1) },
  { name: 'order-status', env: only('0,0,100,0,0', 10, 1) },
  { name: 'delivery', env: only('0,0,0,100,0', 2, 1) },
  { name: 'stock-level', env: only('0,0,0,0,100', 2, 1) },
  { name: 'new-order rolled back', env: only('100,0,0,0,0', 1, 27), only: [ROLLBACK] },
];

async function withDb<T>(ctx: StateContext, f: (db: mysql.Connection) => Promise<T>): Promise<T> {
  const db = await mysql.createConnection({ uri: databaseUrl(ctx.databases, 'mysql') });
  try {
    return await f(db);
  } finally {
    await db.end();
  }
}

const pactModule: PactModule = {
  interactions,
  runs,
  states: {
    // The seed loaded at launch; checked, not assumed (a customer 1 with a last order, items, stock).
    [SEEDED]: (ctx) =>
      withDb(ctx, async (db) => {
        const [[row]] = (await db.query(
          'SELECT (SELECT COUNT(*) FROM customer WHERE c_w_id = 1 AND c_d_id = 1 AND c_last = ?) AS named, (SELECT COUNT(*) FROM customer WHERE c_w_id = 1 AND c_d_id = 1 AND c_id = 1) AS first, (SELECT COUNT(*) FROM stock WHERE s_w_id = 1 AND s_i_id = 1) AS stock',
          [lastName(0)],
        )) as unknown as [[{ named: number; first: number; stock: number }]];
        if (row.named < 1 || row.first !== 1 || row.stock !== 1)
          throw new Error(`the tpcc seed lacks warehouse 1's customer 1, a customer named ${lastName(0)} or item 1's stock: ${JSON.stringify(row)}`);
      }),
    // Written directly: the item (and its stock) removed, so an order naming it must roll back.
    [UNUSED]: (ctx, params) =>
      withDb(ctx, async (db) => {
        await db.execute('DELETE FROM stock WHERE s_i_id = ?', [Number(params.i_id)]);
        await db.execute('DELETE FROM item WHERE i_id = ?', [Number(params.i_id)]);
      }),
  },
};
export default pactModule;
