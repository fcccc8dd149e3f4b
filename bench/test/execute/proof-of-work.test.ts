// Proof of work through the runner's case loop: fake implementations (idle processes) whose
// loads report 100 answers of one request type while a fake database counts the rows they
// made it read: an honest one a row an answer, a cacher half as many. Each repetition
// records its window's verdict against the work model (the cacher's: missing work, with the
// counter and its share: its repetitions set aside and its case failed), and the record
// validates against results.schema.json.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, test } from 'node:test';
import { runCleanup } from '@fairbench/harness/cleanup.ts';
import { newAjv } from '@fairbench/harness/json-schema.ts';
import { startProcess, type ManagedProcess } from '@fairbench/harness/process.ts';
import type { WorkReader } from '@fairbench/harness/work/index.ts';
import schema from '../../results.schema.json' with { type: 'json' };
import type { PlannedCase } from '../../src/plan/api-module.ts';
import { runCases } from '../../src/execute/case-loop/loop.ts';
import type { LoopServer } from '../../src/execute/case-loop/deps.ts';
import type { Measured, StartedLoad } from '../../src/load/k6.ts';
import type { BenchCase } from '../../src/record/result-document.ts';
import type { WorkModel } from '../../src/record/work-check.ts';

const dir = await mkdtemp(join(os.tmpdir(), 'fairbench-work-'));
after(async () => {
  await runCleanup();
  await rm(dir, { recursive: true, force: true });
});

/** Rows read per answer, by implementation. */
const ROWS_PER_ANSWER: Record<string, number> = { honest: 1, cacher: 0.5 };
const IMPLS = Object.keys(ROWS_PER_ANSWER);
const MODEL: WorkModel = { engine: 'Fake', tolerance: 0.02, requestTypes: { op: { counters: { rows: { min: 1, why: 'a row an answer' } } } } };
const CASE: PlannedCase = { id: 'rest/closed/c1', point: 'closed/c1', protocol: 'rest', model: 'closed', parameters: { concurrency: 1 }, requestTypes: ['op'] };

const idle = (name: string, seconds: number): ManagedProcess =>
  startProcess({ name, command: 'sleep', args: [String(seconds)], logFile: join(dir, `${name.replace(/\W/g, '-')}.log`) });

async function run(): Promise<ReadonlyMap<string, BenchCase>> {
  let rows = 0; // the fake database's counter: one database, the loads one at a time
  const reader = (): WorkReader => ({
    snapshot: async () => ({
      engine: 'Fake',
      database: 'd',
      readFrom: Date.now(),
      at: Date.now(),
      counters: { rows: { value: rows, scope: 'database' } },
      unavailable: {},
      readerCost: {},
    }),
    close: async () => {},
  });
  const startLoad = (name: string): StartedLoad => {
    const from = Date.now();
    const process = idle(`load ${name}`, 0.3);
    const done = process.exited.then(async (): Promise<Measured> => {
      rows += 100 * ROWS_PER_ANSWER[name]!;
      const to = Date.now();
      await sleep(5);
      const latencyMs = { min: 1, mean: 2, median: 2, p90: 3, p95: 3, p99: 4, max: 5 };
      return { window: { from, to }, durationSeconds: (to - from) / 1000, requests: 100, errors: {}, throughput: 100, latencyMs, notes: [] };
    });
    return { process, done };
  };
  let records: ReadonlyMap<string, BenchCase> = new Map();
  await runCases([CASE], {
    impls: IMPLS,
    options: { repeat: 2, warmupSeconds: 0 },
    limitSeconds: () => 10,
    startServer: async (name): Promise<LoopServer> => {
      const process = idle(`server ${name}`, 60);
      return { baseUrl: `http://127.0.0.1/${name}`, process, stop: () => process.stop() };
    },
    startLoad: (_c, server) => startLoad(server.baseUrl.split('/').pop()!),
    startBaseline: () => Promise.reject(new Error('no database-alone case here')),
    work: { model: MODEL, shared: true, open: async () => reader() },
    databaseDown: async () => undefined,
    recorded: async (_c, r) => {
      records = r;
    },
    stopping: () => false,
  });
  return records;
}

test("each repetition records its window's work against the model: the cacher's is missing", async () => {
  const records = await run();
  const honest = records.get('honest')!.repetitions;
  assert.deepEqual(
    honest.map((r) => [r.work?.window, r.work?.verdict]),
    [
      ['repetition', 'checked'],
      ['repetition', 'checked'],
    ],
  );
  assert.deepEqual(
    honest[0]!.work?.counters.map((c) => [c.counter, c.observed, c.min, c.status]),
    [['rows', 100, 100, 'ok']],
  );
  // The cacher's repetitions are set aside and its case fails: no figure of it is one of the contract's work.
  const cacherCase = records.get('cacher')!;
  assert.equal(cacherCase.repetitions.length, 0);
  const cacher = cacherCase.invalidRepetitions ?? [];
  assert.deepEqual(
    cacher.map((r) => [r.work?.verdict, r.invalid]),
    [
      ['missing work', true],
      ['missing work', true],
    ],
  );
  assert.deepEqual(cacher[0]!.work?.reasons, ['rows: 50 counted, the answers needed at least 100 (50.0% of it)']);
  assert.equal(cacherCase.failure?.kind, 'missing-work');
  assert.match(cacherCase.failure!.reason, /^missing work in 2 of 2 repetitions: .*\(rows\)$/);
  assert.equal(records.get('honest')!.failure, undefined);
  const valid = newAjv().addSchema(schema).compile({ $ref: 'urn:fairbench:schema:bench-result#/$defs/repetition' });
  for (const rep of [...honest, ...cacher]) assert.ok(valid(rep), JSON.stringify(valid.errors));
});

/** A switched load of the honest and the cacher: each on its own database of one server, or both on one shared database. */
async function switchedRun(shared: boolean): Promise<{ records: ReadonlyMap<string, BenchCase>; opened: (string | undefined)[] }> {
  const rows: Record<string, number> = { honest: 0, cacher: 0 }; // each implementation's own database
  const opened: (string | undefined)[] = [];
  // A server-wide counter: where each has its own database, it holds the other's work too.
  const reader = (impl: string | undefined): WorkReader => ({
    snapshot: async () => ({
      engine: 'Fake',
      database: impl ?? 'shared',
      readFrom: Date.now(),
      at: Date.now(),
      counters: { rows: impl ? { value: rows[impl]!, scope: 'database' } : { value: rows['honest']! + rows['cacher']!, scope: 'server' } },
      unavailable: {},
      readerCost: {},
    }),
    close: async () => {},
  });
  const latencyMs = { min: 1, mean: 2, median: 2, p90: 3, p95: 3, p99: 4, max: 5 };
  const slice = (from: number, to: number): Measured => ({
    window: { from, to },
    durationSeconds: (to - from) / 1000,
    requests: 100,
    errors: {},
    throughput: 100,
    latencyMs,
    notes: [],
  });
  let records: ReadonlyMap<string, BenchCase> = new Map();
  await runCases([CASE], {
    impls: IMPLS,
    options: { repeat: 1, warmupSeconds: 0, switchedSlices: { pairs: 2, sliceSeconds: 0.1, guardSeconds: 0 } },
    limitSeconds: () => 10,
    startServer: async (name): Promise<LoopServer> => {
      const process = idle(`server ${name}`, 60);
      return { baseUrl: `http://127.0.0.1/${name}`, process, stop: () => process.stop() };
    },
    startLoad: () => {
      throw new Error('a switched comparison starts no load per repetition');
    },
    startSwitched: (_c, _running, order) => {
      const process = idle('switched load', 0.05 * order.length + 0.05);
      const done = (async (): Promise<Measured> => {
        // Four slices of 50 ms, each implementation's answers making its own database work.
        const slices = [];
        for (const side of order.split('').map(Number)) {
          const from = Date.now();
          // The work midway: the readings nearest the slice's ends (10 ms apart) fall on its sides of it.
          await sleep(25);
          const impl = IMPLS[side]!;
          rows[impl]! += 100 * ROWS_PER_ANSWER[impl]!;
          await sleep(25);
          slices.push({ side, measured: slice(from, Date.now()) });
        }
        await process.exited;
        return { ...slice(slices[0]!.measured.window.from, Date.now()), requests: 400, slices };
      })();
      return { process, done };
    },
    startBaseline: () => Promise.reject(new Error('no database-alone case here')),
    work: {
      model: MODEL,
      shared,
      everyMs: 10, // readings 10 ms apart: slices of 50 ms
      open: async (impl) => {
        opened.push(impl);
        return reader(impl);
      },
    },
    databaseDown: async () => undefined,
    recorded: async (_c, r) => {
      records = r;
    },
    stopping: () => false,
  });
  return { records, opened };
}

test("a switched load: each implementation's own database over the load against its slices' answers together", async () => {
  const { records, opened } = await switchedRun(false);
  assert.deepEqual(opened.sort(), ['cacher', 'honest'], "one reader of each implementation's own database");
  const honest = records.get('honest')!.repetitions;
  assert.equal(honest.length, 2);
  assert.deepEqual(
    honest.map((r) => [r.work?.window, r.work?.verdict, r.work?.counters[0]?.observed, r.work?.counters[0]?.min]),
    [
      ['load', 'checked', 200, 200],
      ['load', 'checked', 200, 200],
    ],
    "both slices record the load's verdict: two slices' answers, the load's rows",
  );
  assert.deepEqual(
    (records.get('cacher')!.invalidRepetitions ?? []).map((r) => r.work?.verdict),
    ['missing work', 'missing work'],
  );
  assert.equal(records.get('cacher')!.failure?.kind, 'missing-work');
});

test("a switched load on one shared database: the server's counters are both implementations' work, checked against both one's answers", async () => {
  const { records, opened } = await switchedRun(true);
  assert.deepEqual(opened, [undefined], 'one reader of the one database');
  // 200 answers each, 200 + 100 rows: the pair's work is missing, and neither can be told apart from the other.
  for (const name of IMPLS) {
    const reps = records.get(name)!.invalidRepetitions ?? [];
    assert.deepEqual(
      reps.map((r) => [r.work?.verdict, r.work?.counters[0]?.observed, r.work?.counters[0]?.min]),
      [
        ['missing work', 300, 400],
        ['missing work', 300, 400],
      ],
      name,
    );
  }
});
