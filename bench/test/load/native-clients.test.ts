// The native tier's readers: sysbench's and pgbench's reports (and the Go MongoDB client's
// summary) into the baseline kit's output, and the plan's native twin of each driver case.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { histogramLatency, parseSysbench, sysbenchOutput } from '../../src/load/baseline/sysbench.ts';
import { parsePgbenchLog, pgbenchOutput } from '../../src/load/baseline/pgbench.ts';
import { measuredFromBaseline } from '../../src/load/baseline/launch.ts';
import { withNativeTier } from '../../src/plan/tiers.ts';
import { selectCases } from '../../src/plan/select.ts';
import { tierOf } from '../../src/record/result-document.ts';

// sysbench 1.0.20's output here (2 threads, --report-checkpoints=1 --histogram=on), the histogram cut to five rows.
const SYSBENCH = `sysbench 1.0.20 (using system LuaJIT 2.1.0-beta3)

Threads started!

[ 1s ] Checkpoint report:
SQL statistics:
    transactions:                        42073  (42029.82 per sec.)
    ignored errors:                      0      (0.00 per sec.)
General statistics:
    total time:                          1.0001s
    total number of events:              42073
Latency (ms):
         min:                                    0.04
         max:                                    0.70

fairbench-check-failures 0
fairbench-check-failures 2
Latency histogram (values are in milliseconds)
       value  ------------- distribution ------------- count
       0.041 |*****                                    2000
       0.042 |**********************                   5000
       0.050 |****                                     2000
       0.110 |*                                        900
       2.000 |                                         100
 
SQL statistics:
    queries performed:
        read:                            10000
    transactions:                        10000  (5000.00 per sec.)
    queries:                             10000  (5000.00 per sec.)
    ignored errors:                      3      (0.00 per sec.)
    reconnects:                          0      (0.00 per sec.)

General statistics:
    total time:                          3.0022s
    total number of events:              10000

Latency (ms):
         min:                                    0.04
         avg:                                    0.05
         max:                                    5.22
         95th percentile:                        0.06
`;

test("sysbench: the last report is the window's (the checkpoint's is the warm-up's); percentiles from its histogram", () => {
  const r = parseSysbench(SYSBENCH);
  assert.deepEqual([r.events, r.perSecond, r.ignoredErrors, r.maxMs, r.checkFailures, r.histogram.length], [10000, 5000, 3, 5.22, 2, 5]);
  const l = histogramLatency(r.histogram, r.maxMs);
  assert.deepEqual([l.min, l.median, l.p90, l.p95, l.p99, l.max], [41, 42, 50, 110, 110, 5220]);
  assert.equal(l.mean, ((0.041 * 2000 + 0.042 * 5000 + 0.05 * 2000 + 0.11 * 900 + 2 * 100) / 10000) * 1000);
  const out = sysbenchOutput(r, 1_000);
  assert.deepEqual([out.measureFrom, out.measureUntil, out.requests, out.errors], [1_000, 3_000, 10000, { '0': 3 }]);
  assert.throws(() => parseSysbench('Threads started!\n'), /no latency histogram/);
});

test('the native twin of every driver (database) case follows it, same point and parameters; other cases untouched', () => {
  const cases = [
    { id: 'rest/closed/c100', protocol: 'rest', model: 'closed' as const, point: 'closed/c100', parameters: { concurrency: 100 } },
    { id: 'database/closed/c100', protocol: 'database', model: 'closed' as const, point: 'closed/c100', parameters: { concurrency: 100 } },
  ];
  const tiered = withNativeTier(cases);
  assert.deepEqual(
    tiered.map((c) => [c.id, tierOf(c)]),
    [
      ['rest/closed/c100', 'http'],
      ['database/closed/c100', 'driver'],
      ['native/closed/c100', 'native'],
    ],
  );
  assert.deepEqual(tiered[2]!.parameters, cases[1]!.parameters);
  assert.equal(tiered[2]!.point, 'closed/c100');
  // Older documents carry no tier: database was the driver.
  assert.equal(tierOf({ protocol: 'database' }), 'driver');
  assert.equal(tierOf({ protocol: 'database', tier: 'native' }), 'native');
});

// pgbench 15's per-transaction log (-l) as written here: client, transaction, latency µs, script, end (s, µs); one failed.
const PGBENCH_LOG = `0 1 2300 0 1795418315 327847
0 2 105 1 1795418315 327962
1 1 9576 0 1795418315 335149
1 2 failed 1 1795418315 338054
1 3 6096 2 1795418316 344160
`;

test("pgbench: transactions counted by their start inside the window, each standing for its script's requests; failed ones are errors", () => {
  const txs = parsePgbenchLog(PGBENCH_LOG);
  assert.deepEqual(
    txs.map((t) => [t.client, t.latencyUs, t.script]),
    [
      [0, 2300, 0],
      [0, 105, 1],
      [1, 9576, 0],
      [1, null, 1],
      [1, 6096, 2],
    ],
  );
  assert.equal(txs[0]!.endMs, 1795418315327.847);
  // Script 0 is a flow of 4 requests, 1 of 2, 2 of 3. The first transaction started before the window (ended at .327847 after 2.3 ms); the third just inside it.
  const from = 1795418315_325.56;
  const out = pgbenchOutput(txs, [4, 2, 3], from, from + 1_100);
  assert.equal(out.requests, 2 + 4 + 2 + 3);
  assert.deepEqual(out.errors, { '0': 2 });
  // Per request: 105/2 ×2, 9576/4 ×4, 6096/3 ×3.
  assert.deepEqual([out.latencyUs.min, out.latencyUs.median, out.latencyUs.max], [52.5, 2032, 2394]);
  assert.equal(out.latencyUs.mean, Math.round(((105 + 9576 + 6096) / 9) * 1000) / 1000);
});

// apis/mongodb-common/mongo-native's output here (documents' sequential protocol, 5 of each, against FerretDB), cut to two types.
const MONGO_NATIVE =
  '{"measureFrom":1795418926279,"measureUntil":1795418926323,"requests":10,"errors":{"check":1},"latencyUs":{"max":3345.785,"mean":1200.5,"median":969.058,"min":344.216,"p90":2227.298,"p95":3345.785,"p99":3345.785},"requestTypes":{"createDocument":{"requests":5,"errors":1,"latencyUs":{"max":3345.785,"mean":1943.78,"median":2227.298,"min":692.559,"p90":3345.785,"p95":3345.785,"p99":3345.785}},"getDocument":{"requests":5,"errors":0,"latencyUs":{"max":654.597,"mean":461.467,"median":392.947,"min":344.216,"p90":654.597,"p95":654.597,"p99":654.597}}}}';

test("mongo-native writes the kit's output itself: the launcher reads it as any baseline's (µs → ms, per operation)", () => {
  const m = measuredFromBaseline(JSON.parse(MONGO_NATIVE));
  assert.deepEqual([m.requests, m.errors, m.durationSeconds, m.throughput], [10, { check: 1 }, 0.044, Math.round((9 / 0.044) * 1000) / 1000]);
  assert.deepEqual([m.requestTypes!['createDocument']!.errors, m.requestTypes!['getDocument']!.latencyMs.median], [1, 0.393]);
});

test("selection: every kept point's native case comes along, unless `native` (make test's smoke) names the ones to keep", () => {
  const point = (p: string) =>
    [`rest/closed/${p}`, `database/closed/${p}`].map((id) => ({
      id,
      protocol: id.split('/')[0]!,
      model: 'closed' as const,
      point: `closed/${p}`,
      parameters: {},
    }));
  const cases = withNativeTier([...point('a'), ...point('b'), ...point('c')]);
  assert.deepEqual(
    selectCases(cases, { cases: 'rest/closed/[ab]' }).map((c) => c.id),
    ['rest/closed/a', 'database/closed/a', 'native/closed/a', 'rest/closed/b', 'database/closed/b', 'native/closed/b'],
  );
  assert.deepEqual(
    selectCases(cases, { cases: 'rest/closed/[ab]', native: 'native/closed/b' }).map((c) => c.id),
    ['rest/closed/a', 'database/closed/a', 'rest/closed/b', 'database/closed/b', 'native/closed/b'],
  );
  assert.deepEqual(
    selectCases(cases, { cases: 'rest/closed/[ab]', limits: false }).map((c) => c.id),
    ['rest/closed/a', 'rest/closed/b'],
    'make cheats: no database-alone case of either tier',
  );
});
