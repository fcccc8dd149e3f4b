// Invalid repetitions (src/record/validity.ts) through the runner's case loop: fake
// implementations (idle processes) whose loads report scripted failed requests. A
// repetition whose server answered 5xx is set aside from the case's repetitions into its
// invalidRepetitions, with the reason in its notes; a case with none valid fails with kind
// 'invalid'; a case that measures failures (failuresMeasured) keeps them; 4xx and missing
// responses are the load's own errors, not the server's failure. The records validate.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { runCleanup } from '@fairbench/harness/cleanup.ts';
import { startProcess, type ManagedProcess } from '@fairbench/harness/process.ts';
import type { PlannedCase } from '../../src/plan/api-module.ts';
import { runCases } from '../../src/execute/case-loop/loop.ts';
import type { LoopServer } from '../../src/execute/case-loop/deps.ts';
import type { Measured, StartedLoad } from '../../src/load/k6.ts';
import type { BenchCase, Repetition } from '../../src/record/result-document.ts';
import { invalidReasons, serverErrors, statusCounts, withServerErrors } from '../../src/record/validity.ts';

const dir = await mkdtemp(join(os.tmpdir(), 'fairbench-invalid-'));
after(async () => {
  await runCleanup();
  await rm(dir, { recursive: true, force: true });
});

test('server errors are the 5xx statuses alone; a repetition with them is invalid unless its case measures failures', () => {
  assert.deepEqual(serverErrors({ '0': 2, '404': 1, '500': 60, '503': 2, check: 1 }), { '500': 60, '503': 2 });
  assert.equal(statusCounts({ '500': 60, '503': 2 }), '500 × 60, 503 × 2');
  const rep = { index: 1, errors: { '500': 60 }, notes: ['a note'] } as unknown as Repetition;
  const marked = withServerErrors(rep, false);
  assert.equal(marked.invalid, true);
  assert.deepEqual(marked.notes, ['a note', 'invalid: the server answered 500 × 60 (server errors): a figure of a failing server']);
  assert.deepEqual(
    invalidReasons([marked, withServerErrors({ ...rep, errors: { '500': 7 } }, false)]),
    ['the server answered 500 (server errors): a figure of a failing server'],
    'each reason once, without the counts',
  );
  assert.equal(withServerErrors(rep, true), rep, 'a case that measures failures keeps them');
  const clientSide = { index: 1, errors: { '0': 3, '429': 1 } } as unknown as Repetition;
  assert.equal(withServerErrors(clientSide, false), clientSide, 'no response, or a 4xx: not a server error');
});

// Per implementation, the failed requests of each load, in order.
const ERRORS: Record<string, Record<string, number>[]> = {
  clean: [{}, {}, {}],
  'one-503': [{}, { '503': 1 }, {}],
  'all-500': [{ '500': 60 }, { '500': 55 }, { '500': 70 }],
};
const IMPLS = Object.keys(ERRORS);
const REPEAT = 3;

function idle(name: string, seconds: number): ManagedProcess {
  return startProcess({ name, command: 'sleep', args: [String(seconds)], logFile: join(dir, `${name}.log`) });
}

async function run(c: PlannedCase): Promise<ReadonlyMap<string, BenchCase>> {
  const served = new Map<string, number>();
  let records: ReadonlyMap<string, BenchCase> = new Map();
  const measured = (errors: Record<string, number>): Measured => {
    const to = Date.now();
    const latencyMs = { min: 1, mean: 2, median: 2, p90: 3, p95: 3, p99: 4, max: 5 };
    return { window: { from: to - 1000, to }, durationSeconds: 1, requests: 100, errors, throughput: 100, latencyMs, notes: [] };
  };
  const startLoad = (name: string): StartedLoad => {
    const n = served.get(name) ?? 0;
    served.set(name, n + 1);
    const process = idle(`load ${name}`, 0.05);
    return { process, done: process.exited.then(() => measured(ERRORS[name]![n]!)) };
  };
  await runCases([c], {
    impls: IMPLS,
    options: { repeat: REPEAT, warmupSeconds: 0 },
    limitSeconds: () => 10,
    startServer: async (name): Promise<LoopServer> => {
      const process = idle(`server ${name}`, 60);
      return { baseUrl: `http://127.0.0.1/${name}`, process, stop: () => process.stop() };
    },
    startLoad: (_c, server) => startLoad(server.baseUrl.split('/').pop()!),
    startBaseline: () => Promise.reject(new Error('no database-alone case here')),
    databaseDown: async () => undefined,
    recorded: async (_c, r) => {
      records = r;
    },
    stopping: () => false,
  });
  return records;
}

const CASE: PlannedCase = { id: 'rest/closed/c1', point: 'closed/c1', protocol: 'rest', model: 'closed', parameters: { concurrency: 1 } };

test('invalid repetitions are set aside from the figures, kept in invalidRepetitions; a case with none valid fails', async () => {
  const records = await run(CASE);
  const clean = records.get('clean')!;
  assert.equal(clean.repetitions.length, 3);
  assert.equal(clean.invalidRepetitions, undefined);
  assert.equal(clean.failure, undefined);

  const one = records.get('one-503')!;
  assert.deepEqual(
    one.repetitions.map((r) => r.index),
    [1, 3],
    'the figures use the valid repetitions alone',
  );
  assert.deepEqual(
    one.invalidRepetitions?.map((r) => [r.index, r.invalid, r.errors]),
    [[2, true, { '503': 1 }]],
    'the invalid one is kept as measured',
  );
  assert.equal(one.failure, undefined, 'some valid: not a failed case');

  const all = records.get('all-500')!;
  assert.deepEqual(all.repetitions, []);
  assert.equal(all.invalidRepetitions?.length, 3);
  assert.equal(all.failure?.kind, 'invalid');
  assert.match(all.failure?.reason ?? '', /^every repetition invalid: the server answered 500 \(server errors\)/);
});

test('a case that measures failures keeps its repetitions with server errors', async () => {
  const records = await run({ ...CASE, id: 'rest/closed/stress', failuresMeasured: true });
  for (const name of IMPLS) {
    assert.equal(records.get(name)!.repetitions.length, 3, name);
    assert.equal(records.get(name)!.invalidRepetitions, undefined, name);
    assert.equal(records.get(name)!.failure, undefined, name);
  }
});
