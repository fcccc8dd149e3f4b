// The tpcc benchmark's load: TPC-C terminals without think time, each request's inputs drawn
// as clause 2 says (dataset/random.js: NURand customer and item ids with run-time constants,
// 60% of payments and order-statuses by last name, 15% remote payments, 1% remote order
// lines, 1% new orders whose last item is unused and must roll back). Every parameter comes
// from the environment (index.ts sets them from scenario.yaml):
//
//   BASE_URL         http://127.0.0.1:<port> of the implementation (or SLICE_BASES and the other
//                    SLICE_* of switched slices, windowed cases only: bench/k6/measure.js target())
//   WEIGHTS          percent per transaction, new-order,payment,order-status,delivery,stock-level
//   VUS              virtual users (terminals, connections)
//   REQUESTS         0: run for WARMUP + DURATION seconds; else that many requests shared by
//                    the VUs after the warm-up (the paper's Bombardier -n), bounded by MAX_SECONDS
//   WARMUP, DURATION seconds
//   WAREHOUSES, ITEMS, CUSTOMERS, LAST_NAMES   the data set's scale (TPC-C: 1, 100000, 3000, 1000)
//   C_LOAD           the load's C for C_LAST (the run draws with a C_RUN that differs as the spec requires)
//   SEED             the PRNG seed (each VU draws from its own stream)
//   SUMMARY_PATH     where handleSummary writes the JSON summary
//
// An answer counts (goodput) when it is the right one: 200 with the transaction's output, or
// for a rolled-back new order 404 item-not-found. Requests carry the tags name (the
// transaction) and phase (warmup | measure).
import http from 'k6/http';
import exec from 'k6/execution';
import { BASES, env, fullCheck, params, record, reported, SYSTEM_TAGS, target, TREND_STATS, windowStart, writeSummary } from '../../../bench/k6/measure.js';
import { NURAND_A, TpccRandom, lastName, validRunC } from '../dataset/random.js';

const S = 'tpcc.js';
const TRANSACTIONS = ['new-order', 'payment', 'order-status', 'delivery', 'stock-level'];
const WEIGHTS = env(S, 'WEIGHTS').split(',').map(Number);
const VUS = Number(env(S, 'VUS'));
const REQUESTS = Number(env(S, 'REQUESTS', '0'));
const WARMUP = Number(env(S, 'WARMUP', '0'));
const DURATION = Number(env(S, 'DURATION'));
const MAX_SECONDS = Number(env(S, 'MAX_SECONDS', '3600'));
const W = Number(env(S, 'WAREHOUSES'));
const ITEMS = Number(env(S, 'ITEMS'));
const CUSTOMERS = Number(env(S, 'CUSTOMERS'));
const LAST_NAMES = Number(env(S, 'LAST_NAMES'));
const C_LOAD = Number(env(S, 'C_LOAD'));
const SEED = Number(env(S, 'SEED', '1'));
if (WEIGHTS.length !== 5 || WEIGHTS.reduce((a, b) => a + b, 0) !== 100) throw new Error(`${S}: WEIGHTS must be five percentages adding up to 100`);
if (BASES.some((base) => !base)) throw new Error(`${S}: BASE_URL is not set`);
// Switched slices: each transaction goes to the implementation of the slice it starts in, each with its own database.
const SWITCHED = BASES.length > 1;
if (SWITCHED && REQUESTS > 0) throw new Error(`${S}: a fixed number of requests ends when they are done, not on a clock: it cannot switch slices`);

// Clause 2.1.6.1: run-time constants, C_LAST's at a permitted distance from the load's.
const constants = new TpccRandom(SEED * 7919 + 17);
let cLast = constants.int(0, NURAND_A.lastName);
while (!validRunC(C_LOAD, cLast)) cLast = constants.int(0, NURAND_A.lastName);
const C = { lastName: cLast, customerId: constants.int(0, NURAND_A.customerId), itemId: constants.int(0, NURAND_A.itemId) };

const warm = WARMUP > 0 ? { warmup: { executor: 'constant-vus', exec: 'warmup', vus: VUS, duration: `${WARMUP}s`, gracefulStop: '5s' } } : {};
const measured =
  REQUESTS > 0
    ? { executor: 'shared-iterations', exec: 'measure', vus: VUS, iterations: REQUESTS, maxDuration: `${MAX_SECONDS}s`, startTime: `${WARMUP}s` }
    : { executor: 'constant-vus', exec: 'measure', vus: VUS, duration: `${DURATION}s`, startTime: `${WARMUP}s`, gracefulStop: '10s' };

export const options = {
  scenarios: { ...warm, measure: measured },
  summaryTrendStats: TREND_STATS,
  systemTags: SYSTEM_TAGS,
  thresholds: reported(TRANSACTIONS.filter((_, i) => WEIGHTS[i] > 0)),
  // Each VU keeps its connection, as the paper's Bombardier connections and go-tpc's threads do.
  noConnectionReuse: false,
};

export function setup() {
  return { measureFrom: windowStart(WARMUP) };
}

/** This VU's own stream, so that draws do not depend on how the VUs interleave. */
let random;
function rng() {
  random ??= new TpccRandom(SEED * 1_000_003 + exec.vu.idInTest);
  return random;
}

function pick(r) {
  let x = r.int(1, 100);
  for (let i = 0; i < 5; i++) {
    x -= WEIGHTS[i];
    if (x <= 0) return TRANSACTIONS[i];
  }
  return TRANSACTIONS[4];
}

const otherWarehouse = (r, w) => (W === 1 ? w : ((w - 1 + r.int(1, W - 1)) % W) + 1);
const customerId = (r) => r.nurand(NURAND_A.customerId, 1, CUSTOMERS, C.customerId);
const customer = (r) => (r.int(1, 100) <= 60 ? { c_last: lastName(r.nurand(NURAND_A.lastName, 0, LAST_NAMES - 1, C.lastName)) } : { c_id: customerId(r) });

/** Clause 2.4.1: 5..15 lines, NURand items, 1% remote supply, and in 1% of orders an unused last item. */
function newOrder(r, w) {
  const count = r.int(5, 15);
  const rollback = r.int(1, 100) === 1;
  const items = [];
  for (let n = 1; n <= count; n++) {
    const unused = rollback && n === count;
    items.push({
      ol_i_id: unused ? ITEMS + 1 : r.nurand(NURAND_A.itemId, 1, ITEMS, C.itemId),
      ol_supply_w_id: r.int(1, 100) === 1 ? otherWarehouse(r, w) : w,
      ol_quantity: r.int(1, 10),
    });
  }
  return { body: { w_id: w, d_id: r.int(1, 10), c_id: customerId(r), items }, rollback };
}

/** Clause 2.5.1: 85% home district, 15% a remote warehouse's; the amount 1.00..5000.00. */
function payment(r, w) {
  const d = r.int(1, 10);
  const home = r.int(1, 100) <= 85;
  return { w_id: w, d_id: d, c_w_id: home ? w : otherWarehouse(r, w), c_d_id: home ? d : r.int(1, 10), ...customer(r), h_amount: r.int(100, 500_000) / 100 };
}

const draw = {
  'new-order': (r, w) => newOrder(r, w),
  payment: (r, w) => ({ body: payment(r, w) }),
  'order-status': (r, w) => ({ body: { w_id: w, d_id: r.int(1, 10), ...customer(r) } }),
  delivery: (r, w) => ({ body: { w_id: w, o_carrier_id: r.int(1, 10) } }),
  'stock-level': (r, w) => ({ body: { w_id: w, d_id: r.int(1, 10), threshold: r.int(10, 20) } }),
};

const HEADERS = { 'content-type': 'application/json' };
// A field each transaction's 200 answer must have (spec/openapi.yaml, Tpcc*Output's required).
const SCREEN_FIELD = { 'new-order': '"total_amount"', payment: '"h_date"', 'order-status': '"order"', 'stock-level': '"low_stock"' };
const screen = Object.fromEntries(Object.entries(SCREEN_FIELD).map(([name, field]) => [name, (b) => b.includes(field)]));
// Screens listing an order's 5–15 lines: their length varies more than measure.js's length check allows.
const ORDER_LINES = new Set(['new-order', 'order-status']);
const URLS = BASES.map((base) => Object.fromEntries(TRANSACTIONS.map((t) => [t, `${base}/tpcc/${t}`])));

/** One transaction in `phase`, sent to BASES[side]. */
function transaction(phase, side) {
  const r = rng();
  // A terminal's home warehouse (clause 2.x.1: fixed per terminal).
  const w = ((exec.vu.idInTest - 1) % W) + 1;
  const name = pick(r);
  const { body, rollback } = draw[name](r, w);
  // A delivery's and a rolled-back order's bodies are always read: they sort the answers (a
  // delivery that delivered nothing is not goodput, a rollback's 404 is), so no sample of them
  // would do. The others' are read in measure.js's declared sample (fullCheck), which also
  // gives the latency sums behind the paper's latency SD and the server's own time.
  const full = rollback || name === 'delivery' || fullCheck(phase);
  const res = http.post(URLS[side][name], JSON.stringify(body), params(name, phase, full, HEADERS));
  // The rolled-back order's right answer is the 404 item-not-found; every other answer a 200.
  if (rollback) record(res, name, phase, 404, (b) => b.includes('item-not-found'));
  // A delivery that found every district's queue empty did no work. TPC-C allows it, but run
  // alone for a window (the paper's tpmC method) the data's undelivered orders run out (3,000
  // deliveries at W = 1, dataset/model.ts), and a faster implementation would then be timed on
  // empty answers: those count as failed checks, so throughput is the deliveries that delivered.
  else if (name === 'delivery') record(res, name, phase, 200, (b) => /"o_id":\d/.test(b));
  // A sampled answer is the transaction's screen: it holds a field the spec requires of it.
  // The others are checked by length (measure.js) only where the screen's size is fixed.
  else record(res, name, phase, 200, full || !ORDER_LINES.has(name) ? screen[name] : undefined);
}

export function warmup(data) {
  transaction('warmup', SWITCHED ? target(data.measureFrom).side : 0);
}

export function measure(data) {
  if (!SWITCHED) return transaction('measure', 0);
  const { side, phase } = target(data.measureFrom);
  transaction(phase, side);
}

export function handleSummary(data) {
  return writeSummary(data);
}
