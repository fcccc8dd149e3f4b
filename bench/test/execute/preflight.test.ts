// What the runner measures besides the cases: CPU per request from the sampled trees,
// the machine's busy processes before a run, and the generator's ceiling against the
// no-op nginx (real k6 and nginx, a second-long window; skipped where nginx is missing).
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { runCleanup } from '@fairbench/harness/cleanup.ts';
import { coefficientOfVariation, measureCeiling, windowRates } from '../../src/execute/ceiling.ts';
import { caseGeneratorCost, measureFloorAtRate, RATE_FLOOR_LOAD } from '../../src/execute/rate-floor.ts';
import { cpuPerRequest } from '../../src/load/cpu-per-request.ts';
import { heavyProcesses, noiseWarning } from '../../src/execute/noise.ts';
import { choosePlacement } from '../../src/load/placement.ts';
import { CLK_TCK, type Stat } from '../../src/load/proc-sampler.ts';
import { resultErrors } from '../../src/record/result.ts';
import type { Repetition } from '../../src/record/result-document.ts';
import { parseWrk } from '../../src/load/wrk.ts';

const dir = await mkdtemp(join(os.tmpdir(), 'fairbench-preflight-'));
after(async () => {
  await runCleanup();
  await rm(dir, { recursive: true, force: true });
});

const usage = (cpuSeconds: number) => ({ cpuPercentPeak: 0, cpuPercentMean: 0, rssBytesPeak: 0, cpuSeconds });

test("CPU per request: each tree's CPU seconds over the requests, in µs; nothing without requests or seconds", () => {
  assert.deepEqual(cpuPerRequest({ server: usage(2.45), database: usage(0.3), generator: usage(1.7) }, 10_000), { server: 245, database: 30, generator: 170 });
  assert.deepEqual(cpuPerRequest({ server: undefined, database: usage(0.01), generator: { cpuPercentPeak: 1, cpuPercentMean: 1, rssBytesPeak: 1 } }, 3), {
    database: 3333.3,
  });
  assert.equal(cpuPerRequest({ server: usage(1), database: undefined, generator: undefined }, 0), undefined);
  assert.equal(cpuPerRequest({ server: undefined, database: undefined, generator: undefined }, 10), undefined);
});

test("the control's parts: each part's rate from the requests named after it, and their CV", () => {
  const types = (ns: number[]) =>
    Object.fromEntries(ns.map((n, i) => [`w${i + 1}`, { requests: n, errors: 0, latencyMs: { min: 0, mean: 0, median: 0, p90: 0, p95: 0, p99: 0, max: 0 } }]));
  assert.deepEqual(windowRates({ durationSeconds: 3, requestTypes: types([1000, 1100, 900]) }, 3), [1000, 1100, 900]);
  assert.deepEqual(windowRates({ durationSeconds: 3, requestTypes: types([1000, 1100]) }, 3), [], 'a part with no request named: no rates');
  assert.equal(Math.round(coefficientOfVariation([1000, 1100, 900]) * 1000) / 1000, 0.1);
  assert.equal(coefficientOfVariation([5, 5, 5]), 0);
});

test("wrk's report: the requests and the seconds they took", () => {
  const report = `Running 3s test @ http://127.0.0.1:1/\n  1 threads and 32 connections\n  Thread Stats   Avg      Stdev     Max   +/- Stdev\n    Latency     1.10ms  300.00us  10.00ms   90.00%\n  36011 requests in 3.00s, 5.67MB read\nRequests/sec:  12003.67\nTransfer/sec:      1.89MB\n`;
  assert.deepEqual(parseWrk(report), { requests: 36011, seconds: 3 });
  assert.deepEqual(parseWrk('  512 requests in 900.50ms, 1MB read'), { requests: 512, seconds: 0.9005 });
  assert.equal(parseWrk('unable to connect to 127.0.0.1:1 Connection refused'), undefined);
});

test("heavy processes: others above the threshold over the window, the harness's own tree left out", () => {
  const stat = (ppid: number, ticks: number): Stat => ({ ppid, ticks, rssBytes: 0 });
  const second = CLK_TCK; // ticks in one CPU second
  const before = new Map([
    [1, stat(0, 0)],
    [10, stat(1, 0)],
    [11, stat(10, 0)],
    [20, stat(1, 0)],
    [30, stat(1, 0)],
  ]);
  // 10 = us (busy), 11 = our child (busy), 20 = another busy process, 30 = a light one, 40 = new and busy.
  const after = new Map([
    [1, stat(0, 0)],
    [10, stat(1, second)],
    [11, stat(10, second)],
    [20, stat(1, 0.8 * second)],
    [30, stat(1, 0.1 * second)],
    [40, stat(1, 0.5 * second)],
  ]);
  const busy = heavyProcesses(before, after, 1, 10);
  // A process that appeared in the window has no baseline: it is not counted from zero (its CPU before the window would inflate it).
  assert.deepEqual(
    busy.map((p) => [p.pid, p.cpuPercent]),
    [[20, 80]],
  );
  assert.equal(noiseWarning({ loadAverage: [0.2, 0.2, 0.2], governor: null, busyProcesses: [] }, 2), undefined);
  assert.match(
    noiseWarning({ loadAverage: [0.2, 0.2, 0.2], governor: null, busyProcesses: busy }, 2)!,
    /^WARNING: the machine is not quiet: 1 other process busy \(\S+ pid 20 80%\)/,
  );
  assert.match(noiseWarning({ loadAverage: [3.1, 2, 1], governor: 'performance', busyProcesses: [] }, 2)!, /load average 3\.1 on 2 cores/);
});

test(
  'the generator ceiling: k6 against the no-op nginx, its rate and CPU per request recorded',
  { skip: existsSync('/usr/sbin/nginx') ? false : 'nginx is not installed (make setup)' },
  async () => {
    const started = Date.now();
    const ceiling = await measureCeiling(choosePlacement(true), dir, { vus: 4, warmupSeconds: 0.5, durationSeconds: 1.2, windows: 4, rounds: 2 });
    assert.ok(ceiling, 'measured');
    assert.match(ceiling.target, /^nginx \d/);
    assert.ok(ceiling.requests > 50, `${ceiling.requests} requests`);
    assert.ok(Math.abs(ceiling.rate - ceiling.requests / ceiling.durationSeconds) < 0.01 * ceiling.rate + 1);
    assert.ok(ceiling.cpuPerRequestUs! > 1 && ceiling.cpuPerRequestUs! < 100_000, `${ceiling.cpuPerRequestUs} µs of k6 CPU per request`);
    assert.ok(ceiling.cpuBoundRate! > 0);
    // Each round's window in four parts: every request in one of them, their spread as a CV.
    assert.equal(ceiling.windowRates?.length, 8);
    const counted = ceiling.windowRates!.reduce((a, r) => a + (r * ceiling.durationSeconds) / 8, 0);
    assert.ok(Math.abs(counted - ceiling.requests) <= 0.02 * ceiling.requests + 4, `${counted} requests in the parts, ${ceiling.requests} in all`);
    // The floor and the control alternately: a ratio per round, the median of them reported.
    assert.equal(ceiling.rounds?.length, 2);
    for (const r of ceiling.rounds!) assert.equal(r.overFloor, Math.round((r.controlUs / r.floorUs) * 100) / 100);
    const ratios = ceiling.rounds!.map((r) => r.overFloor);
    assert.equal(ceiling.overFloor, Math.round(((ratios[0]! + ratios[1]!) / 2) * 100) / 100);
    assert.ok(ceiling.floor && ceiling.floor.cpuPerRequestUs > 0);
    assert.ok(ceiling.cv! >= 0 && ceiling.cv! < 2, `CV ${ceiling.cv}`);
    if (existsSync('/usr/bin/wrk')) {
      const wrk = ceiling.crossCheck;
      assert.ok(wrk, 'wrk cross-checked the ceiling');
      assert.match(wrk.name, /^wrk \d/);
      assert.equal(wrk.connections, 4);
      assert.ok(wrk.requests > 50 && wrk.cpuPerRequestUs > 0, `wrk ${wrk.requests} requests at ${wrk.cpuPerRequestUs} µs each`);
    }
    assert.ok(Date.now() - started < 40_000, 'bounded in time');
    // It fits the document's schema (a minimal document around it is checked elsewhere; here only its own shape).
    const errors = resultErrors({ generator: { name: 'k6', version: 'v1', ceiling } }).filter((e) => e.startsWith('/generator'));
    assert.deepEqual(errors, []);
  },
);

test("the k6 floor at a case's rate: the repetitions' median rate and k6 µs, the floor held to that rate, the case over it", async (t) => {
  const rep = (throughput: number, generator?: number) =>
    ({ throughput, ...(generator !== undefined ? { cpuPerRequestUs: { generator } } : {}) }) as unknown as Repetition;
  assert.deepEqual(caseGeneratorCost([rep(300, 250), rep(280, 270), rep(320)]), { rate: 300, generatorUs: 260 });
  assert.deepEqual(caseGeneratorCost([rep(150)]), { rate: 150, generatorUs: undefined });
  assert.equal(caseGeneratorCost([rep(0)]), undefined, 'no rate to match');
  if (!existsSync('/usr/sbin/nginx')) {
    t.skip('nginx is not installed (make setup): the measured part is not run');
    console.log('SKIPPED: the k6 floor at a rate needs nginx (make setup)');
    return;
  }
  const started = Date.now();
  const floor = await measureFloorAtRate(choosePlacement(true), dir, 400, 8, 500);
  // --rps holds k6 to the rate (the first second is the floor's warm-up, outside the window).
  assert.equal(floor.targetRate, 400);
  assert.ok(floor.rate > 400 * 0.7 && floor.rate < 400 * 1.1, `${floor.rate} req/s sent, held to 400`);
  assert.ok(Math.abs(floor.requests - floor.rate * RATE_FLOOR_LOAD.durationSeconds) <= 0.05 * floor.requests + 2);
  assert.ok(floor.cpuPerRequestUs > 1 && floor.cpuPerRequestUs < 100_000, `${floor.cpuPerRequestUs} µs per request`);
  assert.equal(floor.overFloor, Math.round((500 / floor.cpuPerRequestUs) * 100) / 100);
  assert.ok(Date.now() - started < 20_000, 'bounded in time');
  const errors = resultErrors({ cases: [{ floorAtRate: floor }] }).filter((e) => e.startsWith('/cases/0/floorAtRate'));
  assert.deepEqual(errors, []);
});
