// Warm-up iterations (src/plan/warm-up.ts) through the runner's case loop: fake implementations
// (idle processes) whose loads report scripted rates. Each is warmed by unrecorded
// iterations until its rate stops rising, the recorded repetitions come after them, only
// the first load of each implementation is its "first" (the longer warm-up), a still-rising
// implementation stops at the maximum, a failure in a warm-up iteration is that
// implementation's failure for the case, and the records validate against the schema. A
// case that ends in overload warms none and loads a freshly started server every time. With
// process pairs every start stops and starts the implementations afresh, warms them again
// and measures its share of the rounds, each repetition marked with its start.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { runCleanup } from '@fairbench/harness/cleanup.ts';
import { startProcess, type ManagedProcess } from '@fairbench/harness/process.ts';
import type { PlannedCase } from '../../src/plan/api-module.ts';
import { runCases } from '../../src/execute/case-loop/loop.ts';
import { shareOf, type LoopServer } from '../../src/execute/case-loop/deps.ts';
import type { Measured, StartedLoad } from '../../src/load/k6.ts';
import { Progress } from '../../src/execute/progress.ts';
import { CaseLoopEvents } from '../../src/execute/case-loop/events.ts';
import { UNPINNED } from '../../src/load/placement.ts';
import { machineFacts, resultErrors } from '../../src/record/result.ts';
import type { BenchCase, BenchResult } from '../../src/record/result-document.ts';
import { isSteady, plannedWarmups } from '../../src/plan/warm-up.ts';

// Made before the first test: with --test-force-exit (make unit) the runner ends once the
// tests it knows have finished, so a top-level await after a test hides every later one.
const dir = await mkdtemp(join(os.tmpdir(), 'fairbench-warm-up-'));
after(async () => {
  await runCleanup();
  await rm(dir, { recursive: true, force: true });
});

test('steady: the last rate rose less than the threshold above the one before (a fall is steady)', () => {
  assert.equal(isSteady([], 5), false);
  assert.equal(isSteady([1000], 5), false, 'one iteration: nothing to compare');
  assert.equal(isSteady([1000, 1049], 5), true);
  assert.equal(isSteady([1000, 1050], 5), false, 'exactly 5% more is still rising');
  assert.equal(isSteady([1000, 900], 5), true);
  assert.equal(isSteady([2013, 3469, 3840, 4037], 5), false, "spring's +5.1%");
  assert.equal(isSteady([2013, 3469, 3840, 4037, 4077], 5), true);
  assert.equal(plannedWarmups({ max: 0, steadyWithinPercent: 5 }), 0);
  assert.equal(plannedWarmups({ max: 6, steadyWithinPercent: 5 }), 2);
});

const MAX = 4;
const REPEAT = 2;
const FIRST_WARMUP = 9;
// Each implementation's rates, load after load (warm-up iterations, then repetitions).
const RATES: Record<string, number[]> = {
  jit: [100, 180, 200, 203, 204, 206],
  flat: [500, 505, 498, 502],
  rising: [100, 120, 140, 160, 180, 200],
  crashing: [300],
};
const IMPLS = Object.keys(RATES);
const CASE: PlannedCase = { id: 'rest/closed/c1', point: 'closed/c1', protocol: 'rest', model: 'closed', parameters: { concurrency: 1 } };
/** Every load: "<impl> first|later". */
const loads: string[] = [];
const served = new Map<string, number>();

function idle(name: string, seconds: number): ManagedProcess {
  return startProcess({ name, command: 'sleep', args: [String(seconds)], logFile: join(dir, `${name}.log`) });
}

function measured(rate: number): Measured {
  const to = Date.now();
  const latencyMs = { min: 1, mean: 2, median: 2, p90: 3, p95: 3, p99: 4, max: 5 };
  return { window: { from: to - 1000, to }, durationSeconds: 1, requests: rate, errors: {}, throughput: rate, latencyMs, notes: [] };
}

function startLoad(name: string, first: boolean): StartedLoad {
  loads.push(`${name} ${first ? 'first' : 'later'}`);
  const n = served.get(name) ?? 0;
  served.set(name, n + 1);
  const rate = RATES[name]![n];
  const process = idle(`load ${name}`, 0.05);
  const done = process.exited.then(() => (rate === undefined ? Promise.reject(new Error(`${name}: connection refused`)) : measured(rate)));
  return { process, done };
}

let records: ReadonlyMap<string, BenchCase>;

test('each implementation warms until its rate is steady, then its repetitions are recorded', async () => {
  await runCases([CASE], {
    impls: IMPLS,
    options: { repeat: REPEAT, warmupSeconds: 0, firstWarmupSeconds: FIRST_WARMUP, warmupIterations: { max: MAX, steadyWithinPercent: 5 } },
    events: new Progress(Array(IMPLS.length).fill({ seconds: 1, firstExtra: 0, warmups: 2 }), REPEAT).listen(new CaseLoopEvents()),
    limitSeconds: () => 10,
    startServer: async (name): Promise<LoopServer> => {
      const process = idle(`server ${name}`, 60);
      return { baseUrl: `http://127.0.0.1/${name}`, process, stop: () => process.stop() };
    },
    startLoad: (_c, server, _limit, first) => startLoad(server.baseUrl.split('/').pop()!, first),
    startBaseline: () => Promise.reject(new Error('no database-alone case here')),
    databaseDown: async () => undefined,
    recorded: async (_c, r) => {
      records = r;
    },
    stopping: () => false,
  });
  const rates = (c: BenchCase, of: 'warm-up' | 'repetitions') => (of === 'warm-up' ? (c.warmup?.iterations ?? []) : c.repetitions).map((r) => r.throughput);

  const jit = records.get('jit')!;
  assert.deepEqual(rates(jit, 'warm-up'), [100, 180, 200, 203], '+80%, +11%, then +1.5%: steady at the fourth');
  assert.equal(jit.warmup?.steady, true);
  assert.deepEqual(rates(jit, 'repetitions'), [204, 206], 'the repetitions come after the warm-up, none of it among them');

  const flat = records.get('flat')!;
  assert.deepEqual(rates(flat, 'warm-up'), [500, 505], 'steady at the second: the fewest the rule allows');
  assert.deepEqual(rates(flat, 'repetitions'), [498, 502]);

  const rising = records.get('rising')!;
  assert.deepEqual(rates(rising, 'warm-up'), [100, 120, 140, 160], 'stopped at the maximum');
  assert.equal(rising.warmup?.steady, false);
  assert.deepEqual(rates(rising, 'repetitions'), [180, 200], 'and measured anyway');

  const crashing = records.get('crashing')!;
  assert.equal(crashing.failure?.warmupIteration, 2);
  assert.equal(crashing.failure?.repetition, undefined);
  assert.match(crashing.failure?.reason ?? '', /connection refused/);
  assert.deepEqual(crashing.repetitions, [], 'a case that failed in its warm-up records no repetition');
  assert.deepEqual(rates(crashing, 'warm-up'), [300]);

  for (const name of IMPLS) {
    const own = loads.filter((l) => l.startsWith(`${name} `));
    assert.deepEqual(
      own.map((l) => l.split(' ')[1]),
      own.map((_, i) => (i === 0 ? 'first' : 'later')),
      `${name}: only its first load is the freshly started one's`,
    );
    const c = records.get(name)!;
    assert.equal(c.warmup?.iterations[0]?.warmupSeconds, FIRST_WARMUP, `${name}: its first warm-up iteration carries the longer warm-up`);
    assert.ok(
      c.repetitions.every((r) => r.warmupSeconds === undefined),
      `${name}: no recorded repetition is a first load`,
    );
  }
  // Rounds alternate like the repetitions: the order reverses from one iteration to the next.
  assert.deepEqual(loads.slice(0, 8), [
    'jit first',
    'flat first',
    'rising first',
    'crashing first',
    'crashing later',
    'rising later',
    'flat later',
    'jit later',
  ]);
});

/** A result document of `cases` with `options` (the case loop's), for the schema. */
function documentOf(cases: BenchCase[], options: Partial<BenchResult['options']>): BenchResult {
  const hash = `sha256:${'a'.repeat(64)}`;
  return {
    schemaVersion: 1,
    runId: '2026-01-01T00-00-00Z',
    api: 'forum',
    startedAt: new Date().toISOString(),
    finishedAt: new Date().toISOString(),
    options: { repeat: REPEAT, durationSeconds: 1, warmupSeconds: 0, quick: false, protocols: ['rest'], cases: null, models: ['closed'], ...options },
    implementation: { name: 'jit', framework: { name: 'fake', version: '1' }, runtime: { name: 'node', version: process.version }, implTreeHash: hash },
    gate: { status: 'passed', specHash: hash, suiteHash: hash, implTreeHash: hash, reused: true },
    source: { commit: null, dirty: true, specHash: hash },
    dataset: { name: 'forum', seed: 1, scale: {}, fingerprint: hash },
    database: { kind: 'mysql', engine: 'fake', version: '1' },
    provider: 'local',
    machine: machineFacts(UNPINNED),
    generator: { name: 'k6', version: 'v1' },
    cases,
  };
}

test('a case with warm-up iterations validates against the results schema', () => {
  const doc = documentOf(
    IMPLS.map((name) => records.get(name)!),
    { firstWarmupSeconds: FIRST_WARMUP, warmupIterations: { max: MAX, steadyWithinPercent: 5 } },
  );
  assert.deepEqual(resultErrors(doc), []);
  const broken = structuredClone(doc);
  broken.cases[0]!.warmup = { iterations: [], steady: true };
  assert.notDeepEqual(resultErrors(broken), [], 'a warm-up without iterations is refused');
});

/** Implementations whose every start and stop, and every load on them, is told to `events` ("start a2", "load a2 first", "stop a2"). */
function toldServers(events: string[], rate: (who: string) => number) {
  const starts = new Map<string, number>();
  return {
    startServer: async (name: string): Promise<LoopServer> => {
      const n = (starts.get(name) ?? 0) + 1;
      starts.set(name, n);
      const process = idle(`server ${name}${n}`, 60);
      events.push(`start ${name}${n}`);
      return {
        baseUrl: `http://127.0.0.1/${name}${n}`,
        process,
        stop: async () => {
          events.push(`stop ${name}${n}`);
          await process.stop();
        },
      };
    },
    startLoad: (_c: PlannedCase, server: LoopServer, _limit: number, first: boolean): StartedLoad => {
      const who = server.baseUrl.split('/').pop()!;
      events.push(`load ${who} ${first ? 'first' : 'later'}`);
      const process = idle(`load ${who}`, 0.02);
      return { process, done: process.exited.then(() => measured(rate(who))) };
    },
  };
}

test('a case that ends in overload: every repetition on a freshly started server, stopped after it, no warm-up iteration', async () => {
  const STRESS: PlannedCase = { ...CASE, id: 'rest/closed/stress', point: 'closed/stress', freshServerEachRepetition: true };
  const events: string[] = [];
  let stressed: ReadonlyMap<string, BenchCase> | undefined;
  await runCases([STRESS], {
    impls: ['a', 'b'],
    options: { repeat: 3, warmupSeconds: 0, firstWarmupSeconds: FIRST_WARMUP, warmupIterations: { max: MAX, steadyWithinPercent: 5 } },
    events: new Progress(
      [
        { seconds: 1, firstExtra: 0, warmups: 0 },
        { seconds: 1, firstExtra: 0, warmups: 0 },
      ],
      3,
    ).listen(new CaseLoopEvents()),
    limitSeconds: () => 10,
    ...toldServers(events, () => 100),
    startBaseline: () => Promise.reject(new Error('no database-alone case here')),
    databaseDown: async () => undefined,
    recorded: async (_c, r) => {
      stressed = r;
    },
    stopping: () => false,
  });
  assert.deepEqual(
    events,
    [
      'start a1',
      'start b1',
      'load a1 first',
      'stop a1',
      'load b1 first',
      'stop b1',
      'start b2',
      'load b2 first',
      'stop b2',
      'start a2',
      'load a2 first',
      'stop a2',
      'start a3',
      'load a3 first',
      'stop a3',
      'start b3',
      'load b3 first',
      'stop b3',
    ],
    'no load runs beside a server another load overloaded',
  );
  for (const name of ['a', 'b']) {
    const c = stressed!.get(name)!;
    assert.equal(c.warmup, undefined, `${name}: no warm-up iteration`);
    assert.equal(c.repetitions.length, 3);
    assert.ok(
      c.repetitions.every((r) => r.warmupSeconds === FIRST_WARMUP),
      `${name}: every repetition is a first load, with its longer warm-up`,
    );
  }
});

test('process pairs: n rounds over k starts, as even as possible, the first ones longer', () => {
  assert.deepEqual(
    [1, 2, 3].map((k) => shareOf(7, 3, k)),
    [
      { k: 1, of: 3, first: 1, last: 3 },
      { k: 2, of: 3, first: 4, last: 5 },
      { k: 3, of: 3, first: 6, last: 7 },
    ],
  );
  assert.deepEqual(shareOf(9, 9, 9), { k: 9, of: 9, first: 9, last: 9 });
  assert.deepEqual(shareOf(5, 1, 1), { k: 1, of: 1, first: 1, last: 5 });
});

test('process pairs: each start stops every implementation, starts it afresh, warms it again, then measures its share, marked', async () => {
  const events: string[] = [];
  let records: ReadonlyMap<string, BenchCase> | undefined;
  const options = { repeat: 7, warmupSeconds: 0, firstWarmupSeconds: FIRST_WARMUP, warmupIterations: { max: 2, steadyWithinPercent: 5 }, processPairs: 3 };
  await runCases([CASE], {
    impls: ['a', 'b'],
    options,
    limitSeconds: () => 10,
    ...toldServers(events, (who) => (who.startsWith('a') ? 100 : 110)),
    startBaseline: () => Promise.reject(new Error('no database-alone case here')),
    databaseDown: async () => undefined,
    recorded: async (_c, r) => {
      records = r;
    },
    stopping: () => false,
  });
  // Start k: both stopped, both started (a first in odd starts, b first in even ones), two warm-up iterations each (the first the fresh process's), then its rounds.
  const orderOf = (k: number) => (k % 2 === 1 ? ['a', 'b'] : ['b', 'a']);
  const startOf = (k: number, rounds: number) => [
    ...(k > 1 ? orderOf(k).map((x) => `stop ${x}${k - 1}`) : []),
    ...orderOf(k).map((x) => `start ${x}${k}`),
    ...['a', 'b'].flatMap((x) => [`load ${x}${k} first`, `load ${x}${k} later`]),
    ...Array.from({ length: rounds * 2 }, (_, i) => `load ${i % 2 === 0 ? 'a' : 'b'}${k} later`),
  ];
  const expected = [...startOf(1, 3), ...startOf(2, 2), ...startOf(3, 2), 'stop a3', 'stop b3'];
  assert.deepEqual([...events].sort(), [...expected].sort(), 'the same starts, stops and loads');
  const lifecycle = (xs: string[]) => xs.filter((e) => /^(start|stop) /.test(e));
  assert.deepEqual(lifecycle(events), lifecycle(expected), 'each start after the other');
  // Which implementation warms first (and so which warms last, right before the measured load) alternates over the starts.
  const firstWarmups = events.filter((e) => / first$/.test(e)).map((e) => e.split(' ')[1]);
  assert.deepEqual(firstWarmups, ['a1', 'b1', 'b2', 'a2', 'a3', 'b3']);
  for (const name of ['a', 'b']) {
    const c = records!.get(name)!;
    assert.deepEqual(
      c.repetitions.map((r) => `${r.index}:${r.process}`),
      ['1:1', '2:1', '3:1', '4:2', '5:2', '6:3', '7:3'],
    );
    assert.deepEqual(
      c.warmup?.iterations.map((i) => i.process),
      [1, 1, 2, 2, 3, 3],
      'each start warmed again',
    );
    assert.equal(c.warmup?.steady, true);
    assert.ok(c.repetitions.every((r) => r.warmupSeconds === undefined));
  }
  assert.deepEqual(resultErrors(documentOf([records!.get('a')!], { ...options, repeat: 7 })), []);
});
