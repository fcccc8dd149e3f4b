// The tpcc API without a database: routing, body parsing and validation, problem mapping and
// Server-Timing over a fake data layer, exact money, and the transaction wrapper's rollback
// and deadlock retries over a fake pool (the real transactions run in the conformance suite).
import { describe, expect, test } from 'bun:test';
import { buildApp } from '../src/app.ts';
import { TpccBusy, TpccItemNotFound, TpccNotFound, createTpccData, type TpccData } from '../src/tpcc/data.ts';
import { cents, centsText, roundDiv, tenThousandths } from '../src/tpcc/money.ts';

const lines = (n: number) => Array.from({ length: n }, (_, i) => ({ ol_i_id: i + 1, ol_supply_w_id: 1, ol_quantity: 1 }));

function fakeData() {
  const calls: { name: string; body: { w_id: number }; extra?: unknown }[] = [];
  const answer = (name: string) => async (body: { w_id: number }, extra?: unknown) => {
    calls.push({ name, body, extra });
    if (body.w_id === 404) throw new TpccNotFound('warehouse 404 does not exist');
    if (body.w_id === 405) throw new TpccItemNotFound('Item number is not valid');
    if (body.w_id === 503) throw new TpccBusy('deadlocks');
    if (body.w_id === 500) throw new Error('the database went away');
    return { name };
  };
  const data = { newOrder: answer('newOrder'), payment: answer('payment'), orderStatus: answer('orderStatus'), delivery: answer('delivery'), stockLevel: answer('stockLevel') };
  return { calls, data: data as unknown as TpccData };
}

const fake = fakeData();
const app = buildApp({ tpcc: fake.data });
const post = (path: string, body: unknown, type = 'application/json') =>
  app.handle(new Request(`http://localhost${path}`, { method: 'POST', body: typeof body === 'string' ? body : JSON.stringify(body), headers: { 'content-type': type } }));

async function expectProblem(res: Response, status: number, type: string) {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toStartWith('application/problem+json');
  expect(((await res.json()) as { type: string }).type).toBe(`urn:fairbench:problem:${type}`);
  expect(res.headers.get('server-timing')).toMatch(/^app;dur=\d+\.\d{3}$/);
}

describe('tpcc routes', () => {
  test('valid bodies reach the data layer; the payment amount arrives in cents; Server-Timing on the answer', async () => {
    const res = await post('/tpcc/new-order', { w_id: 1, d_id: 1, c_id: 1, items: lines(15) });
    expect(res.status).toBe(200);
    expect(res.headers.get('server-timing')).toMatch(/^app;dur=\d+\.\d{3}$/);
    expect((await post('/tpcc/payment', { w_id: 1, d_id: 1, c_w_id: 2, c_d_id: 3, c_last: 'BARBARBAR', h_amount: 1234.56 })).status).toBe(200);
    expect((await post('/tpcc/order-status', { w_id: 1, d_id: 1, c_id: 3000 })).status).toBe(200);
    expect((await post('/tpcc/delivery', { w_id: 1, o_carrier_id: 10 })).status).toBe(200);
    expect((await post('/tpcc/stock-level', { w_id: 1, d_id: 10, threshold: 20 })).status).toBe(200);
    expect(fake.calls.map((c) => c.name)).toEqual(['newOrder', 'payment', 'orderStatus', 'delivery', 'stockLevel']);
    expect(fake.calls[1]!.extra).toBe(123456);
  });

  test('bodies outside TPC-C ranges, strings for numbers and unknown members are 400 invalid-body, never reaching the data layer', async () => {
    const before = fake.calls.length;
    const cases: [string, unknown][] = [
      ['/tpcc/new-order', { w_id: 1, d_id: 1, c_id: 1, items: lines(4) }],
      ['/tpcc/new-order', { w_id: 1, d_id: 1, c_id: 1, items: lines(16) }],
      ['/tpcc/new-order', { w_id: 1, d_id: 1, c_id: 1, items: [...lines(4), { ol_i_id: 9, ol_supply_w_id: 1, ol_quantity: -1 }] }],
      ['/tpcc/new-order', { w_id: '1', d_id: 1, c_id: 1, items: lines(5) }],
      ['/tpcc/new-order', { w_id: 1, d_id: 1, c_id: 1, items: lines(5), o_id: 7 }],
      ['/tpcc/payment', { w_id: 1, d_id: 1, c_w_id: 1, c_d_id: 1, c_id: 1, c_last: 'BAR', h_amount: 5 }],
      ['/tpcc/payment', { w_id: 1, d_id: 1, c_w_id: 1, c_d_id: 1, c_last: "BAR' OR 1=1 --", h_amount: 5 }],
      ['/tpcc/payment', { w_id: 1, d_id: 1, c_w_id: 1, c_d_id: 1, c_id: 1, h_amount: 5000.01 }],
      ['/tpcc/order-status', { w_id: 1, d_id: 11, c_id: 1 }],
      ['/tpcc/delivery', { w_id: 1, o_carrier_id: 0 }],
      ['/tpcc/stock-level', { w_id: 1, d_id: 1, threshold: 21.5 }],
      ['/tpcc/stock-level', [1, 2]],
    ];
    for (const [path, body] of cases) await expectProblem(await post(path, body), 400, 'invalid-body');
    expect(fake.calls.length).toBe(before);
  });

  test('bodies: JSON only (415), at most 16 KiB (413), valid JSON (400 malformed-body)', async () => {
    await expectProblem(await post('/tpcc/delivery', '{"w_id":1,"o_carrier_id":1}', 'text/plain'), 415, 'unsupported-media-type');
    await expectProblem(await post('/tpcc/delivery', JSON.stringify({ w_id: 1, pad: 'x'.repeat(17_000) })), 413, 'payload-too-large');
    await expectProblem(await post('/tpcc/delivery', '{"w_id":1,'), 400, 'malformed-body');
  });

  test("the data layer's refusals become problems; anything else a 500", async () => {
    await expectProblem(await post('/tpcc/stock-level', { w_id: 404, d_id: 1, threshold: 15 }), 404, 'not-found');
    await expectProblem(await post('/tpcc/new-order', { w_id: 405, d_id: 1, c_id: 1, items: lines(5) }), 404, 'item-not-found');
    const busy = await post('/tpcc/delivery', { w_id: 503, o_carrier_id: 1 });
    expect(busy.headers.get('retry-after')).toBe('1');
    await expectProblem(busy, 503, 'unavailable');
    await expectProblem(await post('/tpcc/delivery', { w_id: 500, o_carrier_id: 1 }), 500, 'internal');
  });

  test('routing: other methods 405 with Allow, unknown and trailing-slash paths 404, /health 200', async () => {
    const get = await app.handle(new Request('http://localhost/tpcc/new-order'));
    expect(get.headers.get('allow')).toBe('POST');
    await expectProblem(get, 405, 'method-not-allowed');
    await expectProblem(await post('/tpcc/new-order/', { w_id: 1 }), 404, 'not-found');
    await expectProblem(await post('/tpcc/NEW-ORDER', { w_id: 1 }), 404, 'not-found');
    const health = await app.handle(new Request('http://localhost/health'));
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });
  });
});

test('money is exact: cents in and out, rounding half away from zero', () => {
  expect(cents('-10.00')).toBe(-1000);
  expect(centsText(-2234)).toBe('-22.34');
  expect(centsText(5)).toBe('0.05');
  expect(tenThousandths('0.0790')).toBe(790);
  expect([roundDiv(5, 10), roundDiv(-5, 10), roundDiv(4, 10)]).toEqual([1, -1, 0]);
});

/** A pool whose connection fails the first `failures` transactions with a MySQL error. */
function fakePool(failures: number, errno = 1213) {
  const log: string[] = [];
  let left = failures;
  const connection = {
    async query(sql: string) {
      log.push(sql);
      return [[]];
    },
    async execute(sql: string) {
      log.push(sql);
      if (left > 0) {
        left -= 1;
        throw Object.assign(new Error('Deadlock found when trying to get lock'), { errno });
      }
      return [[{ d_next_o_id: 3001, low_stock: 4 }]];
    },
    release: () => log.push('release'),
    destroy: () => log.push('destroy'),
  };
  return { log, pool: { on() {}, getConnection: async () => connection } as never };
}

test('a deadlock rolls back and runs the transaction again, three attempts in all; then TpccBusy; other errors are not retried', async () => {
  const twice = fakePool(2);
  expect(await createTpccData(twice.pool).stockLevel({ w_id: 1, d_id: 1, threshold: 15 })).toEqual({ w_id: 1, d_id: 1, threshold: 15, low_stock: 4 });
  expect(twice.log.filter((s) => s === 'ROLLBACK').length).toBe(2);
  expect(twice.log.filter((s) => s.startsWith('START TRANSACTION')).length).toBe(3);

  const always = fakePool(3, 1205);
  await expect(createTpccData(always.pool).stockLevel({ w_id: 1, d_id: 1, threshold: 15 })).rejects.toBeInstanceOf(TpccBusy);
  expect(always.log.filter((s) => s === 'ROLLBACK').length).toBe(3);
  expect(always.log.filter((s) => s === 'release').length).toBe(3);

  const other = fakePool(1, 1062);
  await expect(createTpccData(other.pool).stockLevel({ w_id: 1, d_id: 1, threshold: 15 })).rejects.toThrow(/Deadlock found/);
  expect(other.log.filter((s) => s.startsWith('START TRANSACTION')).length).toBe(1);
});
