// Apdex from counts, response time over time, and a stress test's stop conditions: the
// thresholds bench/k6/windows.js gives k6 and what the runner reads back from its summary
// (bench/src/load/windows.ts), on synthetic windows.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { stressThresholds, overTimeThresholds, windowTags } from '../../k6/windows.js';
import { apdexFromCounts, apdexOf, firstFailure, stressOutcomeOf, overTimeOf } from '../../src/load/windows.ts';

const RULE = { meanMs: 30000, meanSeconds: 60, errorRate: 0.5, errorSeconds: 10 };

test('Apdex from counts: (satisfied + tolerating / 2) / requests, failed requests frustrated', () => {
  assert.deepEqual(apdexFromCounts(1000, 10000, 200, 100, 20), { tMs: 1000, fMs: 10000, requests: 200, satisfied: 100, tolerating: 20, score: 0.55 });
  assert.equal(apdexFromCounts(1000, 10000, 3, 1, 1)!.score, 0.5);
  assert.equal(apdexFromCounts(1000, 10000, 0, 0, 0), undefined);
  assert.throws(() => apdexFromCounts(1000, 10000, 10, 8, 3), /exceed/);
  const metrics = {
    'http_reqs{phase:measure}': { values: { count: 10 } },
    'apdex_satisfied{phase:measure}': { values: { count: 6 } },
    'apdex_tolerating{phase:measure}': { values: { count: 3 } },
    'http_reqs{phase:measure,name:login}': { values: { count: 4 } },
    'apdex_satisfied{phase:measure,name:login}': { values: { count: 0 } },
  };
  assert.equal(apdexOf(metrics, { tMs: 1000, fMs: 10000 }, '')!.score, 0.75);
  assert.equal(apdexOf(metrics, { tMs: 1000, fMs: 10000 }, ',name:login')!.score, 0);
  assert.equal(apdexOf(metrics, undefined, ''), undefined, 'no T and F: the script did not count');
});

test('the window tags: each from the start of the measured window (the ramp)', () => {
  assert.deepEqual(windowTags(125_000, 60_000, null), { tw: '2' });
  assert.deepEqual(windowTags(125_000, 2_000, { failure: RULE }), { tw: '62', sw: '2', ew: '12' });
});

test('the stop conditions as aborting thresholds, each judged once its window is over', () => {
  const t = stressThresholds(RULE, 125, 20);
  assert.deepEqual(t['http_req_duration{phase:measure,sw:2}'], [{ threshold: 'avg<=30000', abortOnFail: true, delayAbortEval: '200s' }]);
  assert.deepEqual(t['failed{phase:measure,ew:12}'], [{ threshold: 'rate<=0.5', abortOnFail: true, delayAbortEval: '150s' }]);
  assert.equal(Object.keys(t).length, 3 + 13);
  assert.deepEqual(Object.keys(overTimeThresholds(2)), [
    'http_req_duration{phase:measure,tw:0}',
    'failed{phase:measure,tw:0}',
    'http_req_duration{phase:measure,tw:1}',
    'failed{phase:measure,tw:1}',
  ]);
});

test('failure detection on a synthetic series: the first window over a limit, by its end', () => {
  // The mean crosses 30 s in the 4th minute (ends at 240 s); errors pass 50% in the 10-s window ending at 220 s.
  const mean = [1000, 5000, 20000, 31000, 45000].map((value, k) => ({ k, requests: 100, value }));
  const errors = Array.from({ length: 30 }, (_, k) => ({ k, requests: 50, value: k === 21 ? 0.6 : k === 20 ? 0.5 : 0.1 }));
  assert.deepEqual(firstFailure(mean, errors, RULE), { endMs: 220_000, reason: 'error rate 60% > 50% over 10 s (50 requests)' });
  assert.equal(
    firstFailure(
      mean,
      errors.map((w) => ({ ...w, value: 0.1 })),
      RULE,
    )!.endMs,
    240_000,
  );
  // Exactly at a limit is not over it; a window without requests says nothing.
  assert.equal(
    firstFailure(
      [
        { k: 0, requests: 10, value: 30000 },
        { k: 1, requests: 0, value: 99999 },
      ],
      [{ k: 0, requests: 10, value: 0.5 }],
      RULE,
    ),
    undefined,
  );
});

test("the stress outcome from k6's summary: time to failure from the ramp's start, or survived to the cap; the recovery", () => {
  const stress = { failure: RULE, capSeconds: 660, recoverySeconds: 60 };
  const metrics = {
    'http_req_duration{phase:measure,sw:1}': { values: { avg: 2000, count: 500 } },
    'http_req_duration{phase:measure,sw:2}': { values: { avg: 35000, count: 80 } },
    'failed{phase:measure,ew:5}': { values: { rate: 0.2, passes: 20, fails: 80 } },
    recovered: { values: { rate: 1, passes: 1, fails: 0 } },
    recovery_ms: { values: { max: 1500, avg: 1500 } },
  };
  const failed = stressOutcomeOf(metrics, stress)!;
  assert.equal(failed.failedAfterSeconds, 180);
  assert.match(failed.reason, /^mean response time 35000 ms > 30000 ms over 60 s/);
  assert.deepEqual(failed.recovery, { recovered: true, withinSeconds: 60, seconds: 1.5 });
  const survived = stressOutcomeOf(
    { 'http_req_duration{phase:measure,sw:1}': { values: { avg: 2000, count: 500 } }, recovered: { values: { rate: 0 } } },
    stress,
  )!;
  assert.equal(survived.failedAfterSeconds, undefined);
  assert.equal(survived.reason, 'survived to the cap (660 s)');
  assert.deepEqual(survived.recovery, { recovered: false, withinSeconds: 60 });
  assert.equal(stressOutcomeOf(metrics, undefined), undefined);
});

test('response time over time: the windows that saw requests, in order', () => {
  const v = (avg: number, count: number) => ({ values: { min: 1, avg, med: avg, 'p(90)': avg, 'p(95)': avg, 'p(99)': avg, max: avg, count } });
  const t = overTimeOf(
    {
      'http_req_duration{phase:measure,tw:10}': v(30, 5),
      'http_req_duration{phase:measure,tw:2}': v(10, 7),
      'http_req_duration{phase:measure,tw:3}': v(0, 0),
      'failed{phase:measure,tw:2}': { values: { rate: 0.25 } },
    },
    60,
    (x) => ({ min: x['min']!, mean: x['avg']!, median: x['med']!, p90: 0, p95: 0, p99: 0, max: x['max']! }),
  );
  assert.deepEqual(
    t!.points.map((p) => [p.fromSeconds, p.requests, p.errorRate, p.latencyMs.mean]),
    [
      [120, 7, 0.25, 10],
      [600, 5, 0, 30],
    ],
  );
  assert.equal(
    overTimeOf({}, 60, () => ({ min: 0, mean: 0, median: 0, p90: 0, p95: 0, p99: 0, max: 0 })),
    undefined,
  );
});
