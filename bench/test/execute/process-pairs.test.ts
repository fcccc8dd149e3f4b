// Process pairs through the runner's case loop (options.processPairs): fake implementations
// (idle processes) whose loads report fixed rates. Each start of the case stops every
// implementation and starts it afresh, warms it again (its first load the freshly started
// one's), and measures its share of the repetitions, each marked with its start; the
// indexes stay unique in the case, and the records validate against the schema.
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
import type { Measured } from '../../src/load/k6.ts';
import { UNPINNED } from '../../src/load/placement.ts';
import { machineFacts, resultErrors } from '../../src/record/result.ts';
import type { BenchCase, BenchResult } from '../../src/record/result-document.ts';

const dir = await mkdtemp(join(os.tmpdir(), 'fairbench-process-pairs-'));
after(async () => {
  await runCleanup();
  await rm(dir, { recursive: true, force: true });
});

const idle = (name: string, seconds: number): ManagedProcess =>
  startProcess({ name, command: 'sleep', args: [String(seconds)], logFile: join(dir, `${name.replace(/\W/g, '_')}.log`) });

function measured(rate: number): Measured {
  const to = Date.now();
  const latencyMs = { min: 1, mean: 2, median: 2, p90: 3, p95: 3, p99: 4, max: 5 };
  return { window: { from: to - 1000, to }, durationSeconds: 1, requests: rate, errors: {}, throughput: rate, latencyMs, notes: [] };
}

test('shares: n rounds over k starts, as even as possible, the first ones longer', () => {
  assert.deepEqual(
    [1, 2, 3].map((k) => shareOf(7, 3, k)),
    [
      { k: 1, of: 3, first: 1, last: 3 },
      { k: 2, of: 3, first: 4, last: 5 },
      { k: 3, of: 3, first: 6, last: 7 },
    ],
  );
  assert.deepEqual(shareOf(12, 6, 6), { k: 6, of: 6, first: 11, last: 12 });
  assert.deepEqual(shareOf(5, 1, 1), { k: 1, of: 1, first: 1, last: 5 });
});

test('each start: every implementation stopped, started afresh, warmed again, then its share measured and marked', async () => {
  const CASE: PlannedCase = { id: 'rest/closed/c1', point: 'closed/c1', protocol: 'rest', model: 'closed', parameters: { concurrency: 1 } };
  const events: string[] = [];
  const starts = new Map<string, number>();
  let records: ReadonlyMap<string, BenchCase> | undefined;
  const options = {
    repeat: 7,
    warmupSeconds: 0,
    firstWarmupSeconds: 9,
    warmupIterations: { max: 2, steadyWithinPercent: 5 },
    processPairs: 3,
  };
  await runCases([CASE], {
    impls: ['a', 'b'],
    options,
    limitSeconds: () => 10,
    startServer: async (name): Promise<LoopServer> => {
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
    startLoad: (_c, server, _limit, first) => {
      const who = server.baseUrl.split('/').pop()!;
      events.push(`load ${who}${first ? ' first' : ''}`);
      const process = idle(`load ${who}`, 0.02);
      return { process, done: process.exited.then(() => measured(who.startsWith('a') ? 100 : 110)) };
    },
    startBaseline: () => Promise.reject(new Error('no database-alone case here')),
    databaseDown: async () => undefined,
    recorded: async (_c, r) => {
      records = r;
    },
    stopping: () => false,
  });
  // Start k: both stopped, both started, two warm-up iterations each (the first the fresh process's), then its rounds.
  const startOf = (k: number, rounds: number) => [
    ...(k > 1 ? [`stop a${k - 1}`, `stop b${k - 1}`] : []),
    `start a${k}`,
    `start b${k}`,
    `load a${k} first`,
    `load b${k} first`,
    `load b${k}`,
    `load a${k}`,
    ...Array.from({ length: rounds * 2 }, (_, i) => `load ${i % 2 === 0 ? 'a' : 'b'}${k}`),
  ];
  const withoutOrder = (xs: string[]) => [...xs].sort();
  const expected = [...startOf(1, 3), ...startOf(2, 2), ...startOf(3, 2), 'stop a3', 'stop b3'];
  assert.deepEqual(withoutOrder(events), withoutOrder(expected), 'the same starts, stops and loads');
  assert.deepEqual(
    events.filter((e) => e.startsWith('start') || e.startsWith('stop')),
    expected.filter((e) => e.startsWith('start') || e.startsWith('stop')),
    'each start after the other',
  );
  for (const name of ['a', 'b']) {
    const c = records!.get(name)!;
    assert.deepEqual(
      c.repetitions.map((r) => [r.index, r.process]),
      [
        [1, 1],
        [2, 1],
        [3, 1],
        [4, 2],
        [5, 2],
        [6, 3],
        [7, 3],
      ],
    );
    assert.deepEqual(
      c.warmup?.iterations.map((i) => i.process),
      [1, 1, 2, 2, 3, 3],
      'each start warmed again',
    );
    assert.equal(c.warmup?.steady, true);
    assert.ok(c.repetitions.every((r) => r.warmupSeconds === undefined));
  }
  const hash = `sha256:${'a'.repeat(64)}`;
  const doc: BenchResult = {
    schemaVersion: 1,
    runId: '2026-01-01T00-00-00Z',
    api: 'forum',
    startedAt: new Date().toISOString(),
    finishedAt: new Date().toISOString(),
    options: { ...options, durationSeconds: 1, quick: false, protocols: ['rest'], cases: null, models: ['closed'] },
    implementation: { name: 'a', framework: { name: 'fake', version: '1' }, runtime: { name: 'node', version: process.version }, implTreeHash: hash },
    gate: { status: 'passed', specHash: hash, suiteHash: hash, implTreeHash: hash, reused: true },
    source: { commit: null, dirty: true, specHash: hash },
    dataset: { name: 'forum', seed: 1, scale: {}, fingerprint: hash },
    database: { kind: 'mysql', engine: 'fake', version: '1' },
    provider: 'local',
    machine: machineFacts(UNPINNED),
    generator: { name: 'k6', version: 'v1' },
    cases: [records!.get('a')!],
  };
  assert.deepEqual(resultErrors(doc), []);
});
