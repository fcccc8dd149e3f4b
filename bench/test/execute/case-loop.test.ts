// A run whose cases fail, measured for real: two fake documents implementations
// (fixtures/fake-documents-server.ts, each its own process) and the real k6 running
// the documents API's k6.js, through the runner's case loop and the documents it rewrites
// after every case. "steady" answers everything; "faulty" stops answering record creates
// after three (k6 is stopped at the case's time limit and its summary of the part before
// is kept) and exits on a list create. Before the last case the "database" (a TCP
// listener) goes away. The run goes through; every document validates against the
// schema; each failure is recorded with its reason; the other cases are intact. The
// documents written after each case are the state RESUME continues from.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer as createHttpServer } from 'node:http';
import { createServer as createTcpServer, type AddressInfo, type Server } from 'node:net';
import os from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { runCleanup } from '@fairbench/harness/cleanup.ts';
import { repoRoot } from '@fairbench/harness/paths.ts';
import { startProcess } from '@fairbench/harness/process.ts';
import type { PlannedCase } from '../../src/plan/api-module.ts';
import { runCases } from '../../src/execute/case-loop/loop.ts';
import type { LoopServer } from '../../src/execute/case-loop/deps.ts';
import { databaseDown } from '../../src/execute/db-probe.ts';
import { UsageError } from '../../src/load/failure.ts';
import { startK6 } from '../../src/load/k6.ts';
import { UNPINNED } from '../../src/load/placement.ts';
import { writeReport } from '../../src/report/index.ts';
import { summaryMarkdown } from '../../src/report/summary.ts';
import { Progress } from '../../src/execute/progress.ts';
import { CaseLoopEvents } from '../../src/execute/case-loop/events.ts';
import { machineFacts, resultErrors } from '../../src/record/result.ts';
import type { BenchResult } from '../../src/record/result-document.ts';
import { resumeState, type ResumeExpectation } from '../../src/record/resume.ts';
import { RunRecorder, type DocumentHead } from '../../src/record/run-record.ts';

const skip = existsSync(join(repoRoot, 'apis', 'documents', 'dataset', 'payloads.js'))
  ? false
  : 'apis/documents/dataset/payloads.js (the documents seed) is not in this tree';
const FAKE = fileURLToPath(new URL('../fixtures/fake-documents-server.ts', import.meta.url));
const OPS = ['createDocument', 'getDocument', 'replaceDocument', 'deleteDocument'];
const COUNT = 5;
// A sequential case of 4 × 5 small documents takes k6 1–3 s here, its start-up included
// (not the table shape: k6 spends ~30 s building its payloads on a busy machine).
const LIMIT_SECONDS = 10;
const REPEAT = 2;
const IMPLS = ['steady', 'faulty'];
const FAULTS: Record<string, Record<string, string>> = { steady: {}, faulty: { STALL_KIND: 'record', STALL_AFTER: '3', CRASH_KIND: 'list' } };
// text: measured; record: faulty stalls; list: faulty exits; the second text case: the database is gone.
const POINTS = [
  ['text', COUNT],
  ['record', COUNT],
  ['list', COUNT],
  ['text', 3],
] as const;
const cases: PlannedCase[] = POINTS.map(([kind, requests]) => ({
  id: `rest/sequential/n${requests}-${kind}`,
  point: `sequential/n${requests}-${kind}`,
  protocol: 'rest',
  model: 'sequential',
  parameters: { requests, kind },
  requestTypes: OPS,
}));
const [TEXT, STALLED, CRASHED, NO_DATABASE] = cases.map((c) => c.id) as [string, string, string, string];
const hash = `sha256:${'a'.repeat(64)}`;
const options: BenchResult['options'] = {
  repeat: REPEAT,
  durationSeconds: 2,
  warmupSeconds: 0,
  quick: true,
  protocols: ['rest'],
  cases: null,
  models: ['sequential'],
  implementations: IMPLS,
  scenarioHash: hash,
  seed: 1,
};
const head = async (impl: string): Promise<DocumentHead> => ({
  schemaVersion: 1,
  runId: '2026-01-01T00-00-00Z',
  api: 'documents',
  startedAt: new Date().toISOString(),
  options,
  implementation: { name: impl, framework: { name: 'fake', version: '1' }, runtime: { name: 'node', version: process.version }, implTreeHash: hash },
  gate: { status: 'passed', specHash: hash, suiteHash: hash, implTreeHash: hash, reused: true },
  source: { commit: null, dirty: true, specHash: hash },
  dataset: { name: 'documents', seed: 1, scale: {}, fingerprint: hash },
  database: { kind: 'mongo', engine: 'fake', version: '1' },
  provider: 'local',
  machine: machineFacts(UNPINNED),
  generator: { name: 'k6', version: 'v1' },
});

const dir = await mkdtemp(join(os.tmpdir(), 'fairbench-case-loop-'));
let database: Server;
let databaseUrl: string;
/** The documents as written after each case: [after case 1, after case 2, …]. */
const snapshots: Map<string, BenchResult>[] = [];
const docs = new Map<string, BenchResult>();
let resets = 0;
const crossChecked: string[] = [];
/** Every floor at a case's rate asked for: "<case> <its label: case · impl> <repetitions> <after the cross-check>". */
const floorsAsked: string[] = [];
const FLOOR_AT_RATE = { vus: 1, targetRate: 20, rate: 19.5, requests: 58, durationSeconds: 3, cpuPerRequestUs: 400, overFloor: 1.25 };
/** Every load started: "<case> <port> first|later", and every time limit asked for: "first|later". */
const loads: string[] = [];
const limitsAsked: string[] = [];
const FIRST_WARMUP = 7;
/** The pids of the fakes in the order started, and the trees each settle wait was asked for. */
const startedPids: number[] = [];
const settleCalls: number[][] = [];
const DATABASE_PID = process.pid;
const CROSS_CHECK = { name: 'wrk 4.1.0', connections: 1, durationSeconds: 2, requests: 40, errors: 0, rate: 20, cpuPerRequestUs: 50, cpuPercentMean: 1 };
let elapsedMs = 0;

before(async () => {
  database = createTcpServer((socket) => socket.destroy());
  await new Promise<void>((r) => database.listen(0, '127.0.0.1', r));
  databaseUrl = `mongodb://127.0.0.1:${(database.address() as AddressInfo).port}/fairbench`;
});
after(async () => {
  database.close();
  await runCleanup();
  await rm(dir, { recursive: true, force: true });
});

async function freePort(): Promise<number> {
  const s = createHttpServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as AddressInfo).port;
  await new Promise((r) => s.close(r));
  return port;
}

async function startFake(impl: string): Promise<LoopServer> {
  const port = await freePort();
  const child = startProcess({
    name: `fake ${impl}`,
    command: process.execPath,
    args: [FAKE],
    env: { ...process.env, PORT: String(port), ...FAULTS[impl] },
    logFile: join(dir, `${impl}.log`),
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  startedPids.push(child.pid);
  for (let i = 0; ; i++) {
    const ok = await fetch(`${baseUrl}/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (i > 100) throw new Error(`fake ${impl} did not answer on ${baseUrl}/health`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return { baseUrl, process: child, stop: () => child.stop() };
}

test('a run with a stalled, a crashing and a database-less case goes through and records each', { skip }, async () => {
  const recorder = new RunRecorder({ impls: IMPLS, planned: cases.map((c) => c.id), head, resultsDir: join(dir, 'bench') });
  const started = Date.now();
  await runCases(cases, {
    impls: IMPLS,
    options: { repeat: REPEAT, warmupSeconds: 0, firstWarmupSeconds: FIRST_WARMUP },
    events: new Progress(Array(cases.length * IMPLS.length).fill({ seconds: 1, firstExtra: 0 }), REPEAT).listen(new CaseLoopEvents()),
    limitSeconds: (_c, first) => {
      limitsAsked.push(first ? 'first' : 'later');
      return LIMIT_SECONDS;
    },
    startServer: startFake,
    startLoad: (c, server, limitSeconds, first) => {
      loads.push(`${c.id} pid:${server.process.pid} ${first ? 'first' : 'later'}`);
      return startK6(
        c.id,
        { BASE_URL: server.baseUrl, KIND: String(c.parameters['kind']), MODEL: 'sequential', COUNT: Number(c.parameters['requests']), WARMUP: 0, SEED: 1 },
        { script: join(repoRoot, 'apis', 'documents', 'bench', 'k6.js'), cores: null, workDir: dir, limitSeconds, stopGraceMs: 5_000 },
      );
    },
    startBaseline: () => Promise.reject(new Error('no database-alone case in this test')),
    reset: async () => {
      resets++;
    },
    databaseDown: () => databaseDown(databaseUrl, 1_000),
    databasePid: DATABASE_PID,
    // The second wait ends with the trees still busy.
    settle: async (roots) => {
      settleCalls.push([...roots]);
      return { seconds: 0.5, idle: settleCalls.length !== 2, cpuPercent: settleCalls.length === 2 ? 80 : 1 };
    },
    // Far below what the fakes serve: every served repetition is flagged near the ceiling.
    ceilingRate: 2,
    // A cross-check after the text case's repetitions; one that fails after the stalled case's (steady only: faulty failed there).
    crossCheck: async (c, server) => {
      crossChecked.push(`${c.id} ${server.baseUrl}`);
      if (c.id === STALLED) throw new Error('wrk failed');
      return c.id === TEXT ? CROSS_CHECK : undefined;
    },
    // A floor after the text case (both) and the stalled case (steady; one that fails); none for the list case.
    floorAtRate: async (c, repetitions, label) => {
      floorsAsked.push(`${c.id} ${label} ${repetitions.length} ${crossChecked.some((x) => x.startsWith(`${c.id} `))}`);
      if (c.id === STALLED) throw new Error('k6 failed');
      return c.id === TEXT ? FLOOR_AT_RATE : undefined;
    },
    recorded: async (c, records) => {
      recorder.record(records);
      const files = await recorder.write();
      snapshots.push(new Map(IMPLS.map((impl, i) => [impl, JSON.parse(readFileSync(files[i]!, 'utf8')) as BenchResult])));
      // The database goes away before the last case.
      if (c.id === CRASHED) await new Promise((r) => database.close(r));
    },
    stopping: () => false,
  });
  elapsedMs = Date.now() - started;
  const files = await recorder.write();
  for (const [i, impl] of IMPLS.entries()) docs.set(impl, JSON.parse(readFileSync(files[i]!, 'utf8')) as BenchResult);
  assert.ok(recorder.complete);
  assert.deepEqual(
    recorder.failed().map((f) => `${f.impl} ${f.case.id} ${f.case.failure.kind}`),
    [`steady ${NO_DATABASE} database`, `faulty ${STALLED} time-limit`, `faulty ${CRASHED} implementation`, `faulty ${NO_DATABASE} database`],
  );
});

test('every document validates against the schema, after each case and at the end', { skip }, () => {
  assert.equal(snapshots.length, cases.length);
  for (const [i, snapshot] of snapshots.entries())
    for (const doc of snapshot.values()) {
      assert.deepEqual(resultErrors(doc), [], `after case ${i + 1}`);
      assert.equal(doc.complete, i === cases.length - 1, `complete after case ${i + 1}`);
      assert.deepEqual(
        doc.cases.map((c) => c.id),
        cases.slice(0, i + 1).map((c) => c.id),
      );
    }
  for (const doc of docs.values()) {
    assert.deepEqual(resultErrors(doc), []);
    assert.equal(doc.complete, true);
    assert.equal(doc.plannedCases, cases.length);
  }
});

test('each measured repetition records CPU per request of the sampled trees and its share of the generator ceiling', { skip }, () => {
  const reps = docs.get('steady')!.cases.find((c) => c.id === TEXT)!.repetitions;
  assert.equal(reps.length, REPEAT);
  for (const r of reps) {
    // A window shorter than the sampling interval (this tiny sequential case can be) has no samples, so no figure.
    const per = (seconds: number | undefined) => (seconds === undefined ? undefined : Math.round((seconds / r.requests) * 1e7) / 10);
    assert.equal(r.cpuPerRequestUs?.server, per(r.server?.cpuSeconds));
    assert.equal(r.cpuPerRequestUs?.generator, per(r.generator?.cpuSeconds));

    assert.equal(r.ceilingShare, Math.round((r.requests / r.durationSeconds / 2) * 1000) / 1000);
    assert.ok(r.notes?.some((n) => /% of the generator's ceiling/.test(n)));
  }
  // k6 does real work for every request: over the run's repetitions its CPU shows.
  const k6 = [...docs.values()].flatMap((d) => d.cases.flatMap((c) => c.repetitions.map((r) => r.cpuPerRequestUs?.generator ?? 0)));
  assert.ok(
    k6.some((us) => us > 0),
    `k6 µs per request: ${k6.join(', ')}`,
  );
});

test("a served case's first repetition is each fresh server's first load: the longer warm-up, recorded on it", { skip }, () => {
  // Servers are restarted at each case: a process seen for the first time is a fresh server
  // (not a port: a restarted server may be given the port of an earlier one).
  const seen = new Set<string>();
  for (const line of loads) {
    const [, server, when] = line.split(' ');
    assert.equal(when, seen.has(server!) ? 'later' : 'first', line);
    seen.add(server!);
  }
  assert.equal(
    limitsAsked.filter((w) => w === 'first').length,
    loads.filter((l) => l.endsWith(' first')).length,
    'the time limit of a first repetition allows for its warm-up',
  );
  for (const doc of docs.values())
    for (const c of doc.cases)
      for (const r of c.repetitions)
        assert.equal(r.warmupSeconds, r.index === 1 ? FIRST_WARMUP : undefined, `${doc.implementation.name} ${c.id} repetition ${r.index}`);
});

test('before each repetition every server of the case and the database settle: waited for, recorded, a busy start noted', { skip }, () => {
  assert.equal(settleCalls.length, loads.length, 'one wait per repetition started');
  // The first case: both fakes run from its start, so each of its repetitions waits for both, and the database.
  const [steady, faulty] = startedPids;
  for (const roots of settleCalls.slice(0, REPEAT * IMPLS.length)) assert.deepEqual([...roots].sort(), [steady!, faulty!, DATABASE_PID].sort());
  const text = IMPLS.map((impl) => docs.get(impl)!.cases.find((c) => c.id === TEXT)!);
  for (const c of text) for (const r of c.repetitions) assert.equal(r.settleSeconds, 0.5);
  // The round order is steady, faulty, then faulty, steady: the second wait was faulty's first repetition.
  const busy = text[1]!.repetitions[0]!;
  assert.ok(
    busy.notes?.some((n) => n.includes('still busy: 80% of a core')),
    JSON.stringify(busy.notes),
  );
  assert.ok(!text[0]!.repetitions.some((r) => r.notes?.some((n) => n.includes('still busy'))));
});

test("the cross-check: run once per implementation after a case's repetitions, recorded on the case; a failing one leaves the case as it was", { skip }, () => {
  // text: both; record: steady only (faulty failed); list: steady only (faulty exited); no database: none.
  assert.equal(crossChecked.length, 4, crossChecked.join('; '));
  assert.deepEqual(
    crossChecked.map((x) => x.split(' ')[0]),
    [TEXT, TEXT, STALLED, CRASHED],
  );
  for (const impl of IMPLS) assert.deepEqual(docs.get(impl)!.cases.find((c) => c.id === TEXT)!.crossCheck, CROSS_CHECK);
  const stalled = docs.get('steady')!.cases.find((c) => c.id === STALLED)!;
  assert.equal(stalled.crossCheck, undefined);
  assert.equal(stalled.failure, undefined);
});

test(
  "the floor at a case's rate: once per implementation with its repetitions, after the cross-check; recorded on the case; a failing one leaves the case as it was",
  { skip },
  () => {
    // text: both; record: steady only (faulty failed); list: steady only (faulty exited); no database: none.
    assert.deepEqual(floorsAsked, [
      `${TEXT} ${TEXT} · steady ${REPEAT} true`,
      `${TEXT} ${TEXT} · faulty ${REPEAT} true`,
      `${STALLED} ${STALLED} · steady ${REPEAT} true`,
      `${CRASHED} ${CRASHED} · steady ${REPEAT} true`,
    ]);
    for (const impl of IMPLS) assert.deepEqual(docs.get(impl)!.cases.find((c) => c.id === TEXT)!.floorAtRate, FLOOR_AT_RATE);
    const stalled = docs.get('steady')!.cases.find((c) => c.id === STALLED)!;
    assert.equal(stalled.floorAtRate, undefined);
    assert.equal(stalled.failure, undefined);
    assert.equal(docs.get('steady')!.cases.find((c) => c.id === CRASHED)!.floorAtRate, undefined);
  },
);

test('the stalled case: failed at the time limit, the part measured before the stall kept and marked partial', { skip }, () => {
  const c = docs.get('faulty')!.cases.find((x) => x.id === STALLED)!;
  assert.equal(c.failure?.kind, 'time-limit');
  assert.equal(c.failure?.repetition, 1);
  assert.match(
    c.failure!.reason,
    new RegExp(`time limit of ${LIMIT_SECONDS} s and was stopped with SIGINT; the summary of the [0-9.]+ s measured until then is kept`),
  );
  assert.equal(c.repetitions.length, 1, 'no repetition after the failed one');
  const rep = c.repetitions[0]!;
  assert.equal(rep.partial, true);
  assert.equal(rep.requestTypes?.['createDocument']?.requests, 3, 'the three creates answered before the stall');
  assert.equal(rep.requestTypes?.['getDocument']?.requests, 0, 'nothing after the stalled create');
  // From the window's start (after k6's own start-up) to the summary k6 wrote on the SIGINT.
  assert.ok(rep.durationSeconds > 1 && rep.durationSeconds < LIMIT_SECONDS + 5, `window ${rep.durationSeconds} s`);
  assert.ok(rep.notes?.some((n) => /stopped at the time limit/.test(n)));
});

test('the crashed implementation: failed with its exit, the other implementation intact', { skip }, () => {
  const c = docs.get('faulty')!.cases.find((x) => x.id === CRASHED)!;
  assert.equal(c.failure?.kind, 'implementation');
  assert.match(c.failure!.reason, /faulty exited during the repetition \(exit code 1\)/);
  assert.match(c.failure!.detail ?? '', /crashing on a list create/);
  assert.equal(c.repetitions[0]?.partial, true);
  // steady: every case but the database-less one measured in full, alternating with faulty while it ran.
  const steady = docs.get('steady')!;
  for (const id of [TEXT, STALLED, CRASHED]) {
    const s = steady.cases.find((x) => x.id === id)!;
    assert.equal(s.failure, undefined, id);
    assert.deepEqual(
      s.repetitions.map((r) => r.index),
      [1, 2],
      id,
    );
    for (const r of s.repetitions) {
      for (const op of OPS) assert.equal(r.requestTypes?.[op]?.requests, COUNT, `${id} ${op}`);
      assert.deepEqual(r.errors, {});
      assert.equal(r.partial, undefined);
    }
  }
  const text = docs.get('faulty')!.cases.find((x) => x.id === TEXT)!;
  assert.equal(text.failure, undefined);
  assert.deepEqual(
    text.repetitions.map((r) => r.order),
    [2, 1],
    'faulty second in odd repetitions, first in even ones',
  );
});

test('the database gone: the case fails for every implementation before any server starts', { skip }, () => {
  for (const doc of docs.values()) {
    const c = doc.cases.find((x) => x.id === NO_DATABASE)!;
    assert.equal(c.failure?.kind, 'database');
    assert.match(c.failure!.reason, /the database does not answer on 127\.0\.0\.1:\d+ \(ECONNREFUSED\)/);
    assert.deepEqual(c.repetitions, []);
  }
  // The data was reset before each repetition that ran: text 2×2, record 2+1, list 2+1.
  assert.equal(resets, 4 + 3 + 3);
  assert.ok(elapsedMs < 60_000, `${elapsedMs} ms`);
});

test('RESUME: continues from the cases every document recorded; refuses another run or a complete one', { skip }, () => {
  const expected: ResumeExpectation = { options, implTreeHashes: new Map(IMPLS.map((i) => [i, hash])), placement: { implementation: null, generator: null } };
  const afterTwo = snapshots[1]!;
  const state = resumeState(afterTwo, expected);
  assert.deepEqual(
    [...state.done],
    cases.slice(0, 2).map((c) => c.id),
  );
  assert.equal(state.cases.get('faulty')![1]!.failure?.kind, 'time-limit', 'a failed case counts as done');
  // Killed between the two documents' writes: the case only one of them has is run again.
  const torn = new Map(afterTwo);
  torn.set('steady', snapshots[2]!.get('steady')!);
  assert.deepEqual(
    [...resumeState(torn, expected).done],
    cases.slice(0, 2).map((c) => c.id),
  );
  assert.throws(
    () => resumeState(afterTwo, { ...expected, options: { ...options, repeat: 3 } }),
    (e: Error) => e instanceof UsageError && /not the same run.*repeat 2 → 3/.test(e.message),
  );
  assert.throws(() => resumeState(afterTwo, { ...expected, options: { ...options, scenarioHash: `sha256:${'b'.repeat(64)}` } }), /scenarioHash/);
  assert.throws(() => resumeState(afterTwo, { ...expected, implTreeHashes: new Map([['faulty', `sha256:${'c'.repeat(64)}`]]) }), /faulty's tree changed/);
  assert.throws(() => resumeState(docs, expected), /complete.*nothing to resume/);
});

test('the summary and the report say which cases failed and why, and leave them out of their tables', { skip }, async () => {
  const md = summaryMarkdown(docs.get('faulty')!);
  assert.match(md, /\*\*3 of 4 cases failed\*\*/);
  assert.match(md, new RegExp(`\\| ${STALLED} \\| 1 \\(last partial\\) \\|.*\\*\\*FAILED\\*\\* \\(time-limit\\)`));
  assert.match(md, new RegExp(`\\| ${NO_DATABASE} \\| 0 \\| — .*\\*\\*FAILED\\*\\* \\(database\\)`));
  assert.match(md, new RegExp(`- ${CRASHED}: implementation in repetition 1: faulty exited`));
  assert.match(summaryMarkdown(docs.get('steady')!), /\*\*1 of 4 cases failed\*\*/);
  const report = await writeReport(dir, join(dir, 'report', 'index.html'));
  const api = report.apis.find((a) => a.api === 'documents')!;
  assert.deepEqual(
    api.failures.map((f) => `${f.impl} ${f.case.id} ${f.failure.kind}`).sort(),
    [`faulty ${CRASHED} implementation`, `faulty ${NO_DATABASE} database`, `faulty ${STALLED} time-limit`, `steady ${NO_DATABASE} database`].sort(),
  );
  const shown = api.groups.flatMap((g) => g.rows.flatMap((r) => r.results.map((x) => `${x.impl} ${r.id}`))).sort();
  assert.deepEqual(shown, [`faulty ${TEXT}`, `steady ${CRASHED}`, `steady ${STALLED}`, `steady ${TEXT}`].sort());
  assert.ok(
    api.warnings.some((w) => w.includes(`faulty: run 2026-01-01T00-00-00Z: 3 cases of 4 failed`)),
    api.warnings.join('\n'),
  );
  const html = await readFile(report.file, 'utf8');
  assert.match(html, /<h3 id="[^"]+">Failed cases<\/h3>/);
  assert.match(html, /k6 did not finish within the case&#39;s time limit of 10 s/);
});
