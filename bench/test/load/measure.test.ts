// A repetition measured for real: k6 running the forum's k6.js against a small HTTP
// server (its summary → the result's numbers, compared with what the server saw), and
// the baseline client against a real MariaDB; then a result document built from them
// is checked against bench/results.schema.json.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import type { ForumCase } from '@fairbench/apis/forum/bench/index.ts';
import { seed } from '@fairbench/harness/api/dataset.ts';
import { runCleanup } from '@fairbench/harness/cleanup.ts';
import { chooseProvider } from '@fairbench/harness/provision/index.ts';
import { benchApi } from '../../src/plan/apis.ts';
import { k6Version, startK6, timelineSeconds, type Measured, type RunSettings } from '../../src/load/k6.ts';
import { UNPINNED } from '../../src/load/placement.ts';
import { machineFacts, resultErrors } from '../../src/record/result.ts';
import type { BenchResult, Repetition } from '../../src/record/result-document.ts';

const dir = await mkdtemp(join(os.tmpdir(), 'fairbench-measure-test-'));
after(async () => {
  await runCleanup();
  await rm(dir, { recursive: true, force: true });
});

// The forum as the runner finds it: its benchmark module, its cases, its data set in a real MariaDB.
const forum = await benchApi('forum');
const cases = (await forum.module.plan({}, forum.scenarioFile)).cases as readonly ForumCase[];
const db = await chooseProvider().start('mysql');
const databases = new Map([[db.kind, db]]);
const seeded = await seed(forum, 'conformance', databases);
const prepared = await forum.module.prepare(seeded, databases);
const settings: RunSettings = { warmupSeconds: 1, durationSeconds: 2, seed: 1 };
const measured: { k6?: Measured; baseline?: Measured } = {};
const atConcurrency = (c: ForumCase, concurrency: number): ForumCase => ({ ...c, forum: { ...c.forum, concurrency } });

test('k6 summary → repetition: counts, errors by status and window agree with what the server saw', async () => {
  // Comment ids divisible by 7 answer 404, the others a valid comment.
  const arrivals: number[] = [];
  const server = createServer((req, res) => {
    arrivals.push(Date.now());
    const id = Number(/^\/comment\/(\d+)$/.exec(req.url ?? '')?.[1]);
    if (!id || id % 7 === 0) return res.writeHead(404).end();
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ comment_id: id, thread_id: 1, user_id: 1, body: 'x', datemade: null, datelastupdated: null }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const c = cases.find((x) => x.id === 'rest/closed/c100-r1-j0')!;
  try {
    const env = {
      BASE_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      TIMELINE_SECONDS: timelineSeconds(settings.warmupSeconds + settings.durationSeconds),
      ...prepared.k6Env(atConcurrency(c, 5), settings),
    };
    const run = startK6(c.id, env, { script: forum.script, cores: null, workDir: dir, limitSeconds: 60 });
    const m = await run.done;
    measured.k6 = m;
    assert.ok(m.requests > 100, `${m.requests} requests`);
    const seen = arrivals.filter((t) => t >= m.window.from && t <= m.window.to).length;
    assert.ok(Math.abs(seen - m.requests) <= 10, `k6 counted ${m.requests}, the server saw ${seen} in the window`);
    assert.ok(Math.abs(m.durationSeconds - settings.durationSeconds) < 0.5, `window ${m.durationSeconds} s`);
    const share = (m.errors['404'] ?? 0) / m.requests;
    assert.ok(share > 0.08 && share < 0.22, `404 share ${share} (1 in 7 ids)`);
    assert.deepEqual(Object.keys(m.errors), ['404'], 'valid bodies pass their check');
    assert.ok(Math.abs(m.throughput - (m.requests - (m.errors['404'] ?? 0)) / m.durationSeconds) < 1);
    const l = m.latencyMs;
    assert.ok(l.min <= l.median && l.median <= l.p95 && l.p95 <= l.p99 && l.p99 <= l.max && l.max > 0);
    assert.equal(m.droppedIterations, 0);
    // The timeline covers the warm-up too: a second per second of load, together every request the server saw.
    const timeline = m.timeline ?? [];
    assert.deepEqual(timeline.map((p) => p.second).slice(0, 3), [0, 1, 2], JSON.stringify(timeline));
    assert.ok(timeline.length <= 4, 'a 3 s load, its last requests ending in the fourth second at most');
    const total = timeline.reduce((n, p) => n + p.requests, 0);
    assert.ok(total > m.requests && Math.abs(total - arrivals.length) <= 5, `timeline ${total} requests, window ${m.requests}, server ${arrivals.length}`);
    for (const p of timeline) assert.ok(p.p50Ms > 0 && p.p50Ms <= p.p95Ms, JSON.stringify(p));
  } finally {
    server.close();
  }
});

test("the baseline client runs the case's SQL through a real MariaDB and checks the row count", async () => {
  const c = cases.find((x) => x.id === 'database/closed/c100-r50-j1')!;
  const run = await prepared.startBaseline(atConcurrency(c, 10), settings, { cores: null, workDir: dir, poolSize: 10, limitSeconds: 60 });
  const m = await run.done;
  measured.baseline = m;
  assert.ok(m.requests > 100, `${m.requests} queries`);
  assert.deepEqual(m.errors, {}, 'every user has 100 comments: 50 rows each time');
  const l = m.latencyMs;
  assert.ok(l.min > 0 && l.min <= l.median && l.median <= l.p99 && l.p99 <= l.max);
  await db.stop();
});

test('a document built from measured repetitions validates against the result schema; a broken one does not', async () => {
  assert.ok(measured.k6 && measured.baseline, 'needs the two tests above');
  const rep = (m: Measured): Repetition => ({
    index: 1,
    startedAt: new Date(m.window.from).toISOString(),
    durationSeconds: m.durationSeconds,
    requests: m.requests,
    errors: m.errors,
    throughput: m.throughput,
    latencyMs: m.latencyMs,
    generatorBound: false,
    ...(m.droppedIterations !== undefined ? { droppedIterations: m.droppedIterations } : {}),
    ...(m.timeline ? { timeline: m.timeline } : {}),
  });
  const hash = `sha256:${'a'.repeat(64)}`;
  const doc: BenchResult = {
    schemaVersion: 1,
    runId: '2026-01-01T00-00-00Z',
    api: 'forum',
    startedAt: new Date().toISOString(),
    finishedAt: new Date().toISOString(),
    wallSeconds: 1,
    options: { repeat: 1, durationSeconds: 2, warmupSeconds: 1, quick: true, protocols: ['rest', 'database'], cases: null, models: ['closed'] },
    implementation: { name: 'express', framework: { name: 'Express', version: '5' }, runtime: { name: 'node', version: process.version }, implTreeHash: hash },
    gate: { status: 'passed', specHash: hash, suiteHash: hash, implTreeHash: hash, reused: true },
    source: { commit: null, dirty: true, specHash: hash },
    dataset: { name: 'forum', seed: 1, scale: { ...seeded.info.scale }, fingerprint: hash },
    database: { kind: 'mysql', engine: 'MariaDB', version: '10' },
    provider: 'local',
    machine: machineFacts(UNPINNED),
    generator: { name: 'k6', version: await k6Version() },
    cases: [
      { id: 'rest/closed/c5-r1-j0', protocol: 'rest', model: 'closed', parameters: { concurrency: 5, rows: 1, joins: 0 }, repetitions: [rep(measured.k6)] },
      {
        id: 'database/closed/c10-r50-j1',
        protocol: 'database',
        model: 'closed',
        parameters: { concurrency: 10, rows: 50, joins: 1 },
        repetitions: [rep(measured.baseline)],
      },
    ],
  };
  assert.deepEqual(resultErrors(doc), []);
  assert.ok((doc.cases[0]!.repetitions[0]!.timeline ?? []).length > 0, 'the k6 repetition carries its timeline');
  assert.notDeepEqual(resultErrors({ ...doc, gate: { ...doc.gate, status: 'failed' } }), [], 'only a passing gate is a valid result');
  assert.notDeepEqual(resultErrors({ ...doc, cases: [{ ...doc.cases[0], repetitions: [] }] }), []);
});
