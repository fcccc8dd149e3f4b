// The tpcc benchmark's plan (the scenario file expanded into cases, each point with go-tpc's
// database-alone case) and the reading of go-tpc's summary into the baseline kit's output.
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import tpccBench from '../bench/index.ts';
import { baselineOutput, summaryLines } from '../bench/baseline.ts';

const SCENARIO = fileURLToPath(new URL('../bench/scenario.yaml', import.meta.url));

test("the plan: the paper's payment matrix, the standard mix and each transaction alone, every point followed by its go-tpc case", async () => {
  const plan = await tpccBench.plan({}, SCENARIO);
  const ids = plan.cases.map((c) => c.id);
  assert.equal(ids.length, 2 * (9 + 1 + 5));
  assert.deepEqual(ids.slice(0, 2), ['rest/closed/payment-c25-n10000', 'database/closed/payment-c25-n10000']);
  assert.ok(ids.includes('rest/closed/payment-c100-n1000000'));
  assert.ok(ids.includes('database/sequential/stock-level'));
  const mix = plan.cases.find((c) => c.id === 'rest/closed/mix-t16')!;
  assert.deepEqual(mix.weights, { 'new-order': 45, payment: 43, 'order-status': 4, delivery: 4, 'stock-level': 4 });
  assert.equal(mix.requests, undefined);
  const one = plan.cases.find((c) => c.id === 'rest/sequential/delivery')!;
  assert.deepEqual([one.vus, one.weights.delivery, one.weights.payment, one.requestTypes], [1, 100, 0, ['delivery']]);
  const matrix = plan.cases.find((c) => c.id === 'rest/closed/payment-c50-n100000')!;
  assert.deepEqual([matrix.vus, matrix.requests, matrix.parameters], [50, 100_000, { workload: 'payment', concurrency: 50, requests: 100_000 }]);
  // A fixed number of requests ends when they are done, not on a clock: only the windowed cases switch slices,
  // but delivery alone, which uses up the seed's undelivered orders within a switched load (scenario.yaml).
  assert.equal(matrix.separateLoads, true);
  assert.equal(mix.separateLoads, undefined);
  assert.equal(one.separateLoads, true);
  assert.equal(plan.cases.find((c) => c.id === 'rest/sequential/payment')!.separateLoads, undefined);
});

test('QUICK keeps the smallest request count; CASES and MODEL select as everywhere, baselines coming along', async () => {
  const quick = await tpccBench.plan({ quick: true, models: ['closed'] }, SCENARIO);
  assert.deepEqual(
    quick.cases.filter((c) => c.protocol === 'rest').map((c) => c.id),
    ['rest/closed/payment-c25-n10000', 'rest/closed/payment-c50-n10000', 'rest/closed/payment-c100-n10000', 'rest/closed/mix-t16'],
  );
  const picked = await tpccBench.plan({ cases: 'rest/sequential/payment' }, SCENARIO);
  assert.deepEqual(
    picked.cases.map((c) => c.id),
    ['rest/sequential/payment', 'database/sequential/payment'],
  );
  await assert.rejects(tpccBench.plan({ models: ['open'] }, SCENARIO), /MODEL must be one of closed, sequential for the tpcc API, got 'open'/);
});

// go-tpc v1.0.12's plain summary, as printed here (a 10 s run at W = 1, 4 threads), with an error line added.
const OUTPUT = `Finished
[Summary] DELIVERY - Takes(s): 10.0, Count: 172, TPM: 1036.8, Sum(ms): 3493.8, Avg(ms): 20.3, 50th(ms): 18.9, 90th(ms): 30.4, 95th(ms): 33.6, 99th(ms): 44.0, 99.9th(ms): 44.0, Max(ms): 44.0
[Summary] NEW_ORDER - Takes(s): 10.0, Count: 1856, TPM: 11146.3, Sum(ms): 22414.0, Avg(ms): 12.1, 50th(ms): 11.0, 90th(ms): 19.9, 95th(ms): 23.1, 99th(ms): 30.4, 99.9th(ms): 35.7, Max(ms): 39.8
[Summary] NEW_ORDER_ERR - Takes(s): 10.0, Count: 3, TPM: 18.0, Sum(ms): 30.0, Avg(ms): 10.0, 50th(ms): 10.0, 90th(ms): 10.0, 95th(ms): 10.0, 99th(ms): 10.0, 99.9th(ms): 10.0, Max(ms): 10.0
[Summary] PAYMENT - Takes(s): 10.0, Count: 1837, TPM: 11031.4, Sum(ms): 11392.2, Avg(ms): 6.2, 50th(ms): 5.8, 90th(ms): 11.0, 95th(ms): 12.6, 99th(ms): 17.8, 99.9th(ms): 31.5, Max(ms): 41.9
tpmC: 11146.2, tpmTotal: 25142.3, efficiency: 86673.2%
`;

test("go-tpc's summary becomes per-transaction counts, errors and latencies (ms → µs)", () => {
  const lines = summaryLines(OUTPUT);
  assert.deepEqual(
    lines.map((l) => [l.op, l.count]),
    [
      ['DELIVERY', 172],
      ['NEW_ORDER', 1856],
      ['NEW_ORDER_ERR', 3],
      ['PAYMENT', 1837],
    ],
  );
  const out = baselineOutput(lines, 1000, 11_000);
  assert.equal(out.requests, 172 + 1856 + 3 + 1837);
  assert.deepEqual(out.errors, { check: 3 });
  assert.deepEqual([out.requestTypes!['new-order']!.requests, out.requestTypes!['new-order']!.errors], [1859, 3]);
  assert.equal(out.requestTypes!['payment']!.latencyUs.p95, 12_600);
  assert.equal(out.requestTypes!['delivery']!.latencyUs.max, 44_000);
  // Overall: the count-weighted mean, the highest maximum.
  assert.equal(Math.round(out.latencyUs.mean), Math.round(((172 * 20.3 + 1856 * 12.1 + 1837 * 6.2) / (172 + 1856 + 1837)) * 1000));
  assert.equal(out.latencyUs.max, 44_000);
});
