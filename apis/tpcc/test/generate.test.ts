// The generator: deterministic, TPC-C's cardinalities at its own scale (clause 4.3.3.1),
// the value ranges and invariants the transactions and the consistency conditions rely on.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fingerprintTpcc } from '../dataset/fingerprint.ts';
import { generateTpcc } from '../dataset/generate.ts';
import { CONFORMANCE_SCALE, PAPER_SCALE, type TpccDataset } from '../dataset/model.ts';
import { parseCents } from '../dataset/money.ts';
import { SYLLABLES, lastName } from '../dataset/random.js';

const paper = generateTpcc(PAPER_SCALE);

test("TPC-C's scale: one warehouse has 100,000 items and stock rows, 10 districts of 3,000 customers and orders, every order a new order (model.ts PAPER_SCALE: delivery alone needs them)", () => {
  const t = paper.tables;
  assert.equal(t.item.length, 100_000);
  assert.equal(t.warehouse.length, 1);
  assert.equal(t.stock.length, 100_000);
  assert.equal(t.district.length, 10);
  assert.equal(t.customer.length, 30_000);
  assert.equal(t.history.length, 30_000);
  assert.equal(t.orders.length, 30_000);
  assert.equal(t.new_order.length, 30_000);
  // 5..15 lines per order: about 10 on average (299,928 with seed 1).
  assert.equal(
    t.order_line.length,
    t.orders.reduce((s, o) => s + o.o_ol_cnt, 0),
  );
  assert.ok(t.order_line.length > 290_000 && t.order_line.length < 310_000, String(t.order_line.length));
});

test('the same seed gives identical rows; another seed does not', () => {
  const a = generateTpcc(CONFORMANCE_SCALE);
  assert.deepEqual(a, generateTpcc(CONFORMANCE_SCALE));
  assert.equal(fingerprintTpcc(a), fingerprintTpcc(generateTpcc(CONFORMANCE_SCALE)));
  assert.notEqual(fingerprintTpcc(generateTpcc({ ...CONFORMANCE_SCALE, seed: 2 })), fingerprintTpcc(a));
});

function checkInvariants(data: TpccDataset): void {
  const { scale, tables: t } = data;
  const orders = scale.customersPerDistrict;
  const delivered = orders - scale.newOrdersPerDistrict;
  for (const d of t.district) {
    assert.equal(d.d_next_o_id, orders + 1);
    assert.equal(d.d_ytd, '30000.00');
  }
  // Consistency condition 1: W_YTD = sum(D_YTD).
  for (const w of t.warehouse)
    assert.equal(
      parseCents(w.w_ytd),
      t.district.filter((d) => d.d_w_id === w.w_id).reduce((s, d) => s + parseCents(d.d_ytd), 0),
    );
  // Each customer of a district has exactly one order (O_C_ID is a permutation).
  const byDistrict = new Map<string, number[]>();
  for (const o of t.orders) byDistrict.set(`${o.o_w_id}/${o.o_d_id}`, [...(byDistrict.get(`${o.o_w_id}/${o.o_d_id}`) ?? []), o.o_c_id]);
  for (const cs of byDistrict.values())
    assert.deepEqual(
      [...cs].sort((a, b) => a - b),
      Array.from({ length: orders }, (_, i) => i + 1),
    );
  for (const o of t.orders) {
    assert.equal(o.o_carrier_id === null, o.o_id > delivered);
    assert.ok(o.o_ol_cnt >= 5 && o.o_ol_cnt <= 15);
  }
  // New orders: the newest of each district, none delivered.
  for (const no of t.new_order) assert.ok(no.no_o_id > delivered && no.no_o_id <= orders);
  assert.equal(t.new_order.length, scale.warehouses * 10 * scale.newOrdersPerDistrict);
  for (const ol of t.order_line) {
    assert.equal(ol.ol_delivery_d === null, ol.ol_o_id > delivered);
    assert.equal(ol.ol_amount === '0.00', ol.ol_o_id <= delivered);
    assert.ok(ol.ol_i_id >= 1 && ol.ol_i_id <= scale.items);
    assert.equal(ol.ol_quantity, 5);
  }
  for (const s of t.stock) assert.ok(s.s_quantity >= 10 && s.s_quantity <= 100);
  for (const i of t.item) {
    const cents = parseCents(i.i_price);
    assert.ok(cents >= 100 && cents <= 10_000);
    assert.ok(i.i_data.length >= 26 && i.i_data.length <= 50);
  }
  for (const c of t.customer) {
    assert.ok(c.c_data.length >= 300 && c.c_data.length <= 500);
    assert.match(c.c_last, new RegExp(`^(${SYLLABLES.join('|')}){3}$`));
    assert.ok(Number(c.c_discount) <= 0.5);
  }
}

test('invariants at both scales: order ids, deliveries, new orders, ranges, W_YTD = sum(D_YTD)', () => {
  checkInvariants(paper);
  checkInvariants(generateTpcc(CONFORMANCE_SCALE));
});

test('last names: the first 1,000 customers of a district take names 0..999 in order, the others NURand(255, 0, 999)', () => {
  const district1 = paper.tables.customer.filter((c) => c.c_w_id === 1 && c.c_d_id === 1);
  assert.deepEqual(
    district1.slice(0, 1000).map((c) => c.c_last),
    Array.from({ length: 1000 }, (_, i) => lastName(i)),
  );
  assert.equal(lastName(371), 'PRICALLYOUGHT'); // clause 4.3.2.3's example
  // NURand is not uniform: the 2,000 drawn names of all districts repeat far more than uniform draws would.
  const counts = new Map<string, number>();
  for (const c of paper.tables.customer.filter((c) => c.c_id > 1000)) counts.set(c.c_last, (counts.get(c.c_last) ?? 0) + 1);
  const top = [...counts.values()]
    .sort((a, b) => b - a)
    .slice(0, 10)
    .reduce((s, v) => s + v, 0);
  // 20,000 uniform draws over 1,000 names put about 20 on each (the top 10 near 300); NURand(255, …) well over that.
  assert.ok(top > 500, `top-10 names drew ${top}`);
});

test('about 10% of items and stock rows carry ORIGINAL, about 10% of customers have bad credit', () => {
  const share = (n: number, total: number) => n / total;
  const original = (s: string) => s.includes('ORIGINAL');
  assert.ok(Math.abs(share(paper.tables.item.filter((i) => original(i.i_data)).length, 100_000) - 0.1) < 0.01);
  assert.ok(Math.abs(share(paper.tables.stock.filter((s) => original(s.s_data)).length, 100_000) - 0.1) < 0.01);
  assert.ok(Math.abs(share(paper.tables.customer.filter((c) => c.c_credit === 'BC').length, 30_000) - 0.1) < 0.01);
});

test("a scale outside the generator's rules is refused", () => {
  assert.throws(() => generateTpcc({ ...CONFORMANCE_SCALE, newOrdersPerDistrict: 31 }), RangeError);
  assert.throws(() => generateTpcc({ ...CONFORMANCE_SCALE, lastNames: 31 }), RangeError);
  assert.throws(() => generateTpcc({ ...CONFORMANCE_SCALE, warehouses: 0 }), RangeError);
});
