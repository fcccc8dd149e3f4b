// Switched slices measured for real: two fake forum implementations (fixtures/fake-forum-server.ts,
// each its own process; B burns 400 µs per answer) and the real k6 running forum's k6.js with
// SLICE_BASES, through the runner's case loop. Each repetition is a pair of adjacent slices,
// one per implementation in the round's order; every slice's requests went to its own
// implementation (the servers' own clocks say so), none to the other once its guard is
// over; each slice's server CPU is its own implementation's.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { runCleanup } from '@fairbench/harness/cleanup.ts';
import { repoRoot } from '@fairbench/harness/paths.ts';
import { freePort } from '@fairbench/harness/ports.ts';
import { startProcess } from '@fairbench/harness/process.ts';
import type { PlannedCase } from '../../src/plan/api-module.ts';
import { runCases } from '../../src/execute/case-loop/loop.ts';
import type { LoopServer } from '../../src/execute/case-loop/deps.ts';
import { interleavedOrder } from '../../src/plan/interleave.ts';
import { measuredFromK6, startK6 } from '../../src/load/k6.ts';
import type { BenchCase } from '../../src/record/result-document.ts';

const FAKE = fileURLToPath(new URL('../fixtures/fake-forum-server.ts', import.meta.url));
const SCRIPT = join(repoRoot, 'apis', 'forum', 'bench', 'k6.js');
const IMPLS = ['a', 'b'];
const BURN_US: Record<string, number> = { a: 0, b: 400 };
const REPEAT = 4;
const SLICE = 1;
const GUARD = 0.25;
const WARMUP = 1;
const ORDER_KEY = 'switched-test';
const c: PlannedCase = {
  id: 'rest/closed/c4-r1-j0',
  point: 'closed/c4-r1-j0',
  protocol: 'rest',
  model: 'closed',
  parameters: { rows: 1, joins: 0, concurrency: 4 },
  requestTypes: ['commentById'],
};

const dir = await mkdtemp(join(os.tmpdir(), 'fairbench-switched-'));
const servers = new Map<string, LoopServer>();
const served = new Map<string, number[]>();
const orders: string[] = [];
let records: ReadonlyMap<string, BenchCase> | undefined;

async function startFake(impl: string): Promise<LoopServer> {
  const port = await freePort();
  const child = startProcess({
    name: `fake forum ${impl}`,
    command: process.execPath,
    args: [FAKE],
    env: { ...process.env, PORT: String(port), BURN_US: String(BURN_US[impl]) },
    logFile: join(dir, `${impl}.log`),
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  for (
    let i = 0;
    !(await fetch(`${baseUrl}/health`).then(
      (r) => r.ok,
      () => false,
    ));
    i++
  ) {
    if (i > 100) throw new Error(`fake ${impl} did not answer on ${baseUrl}/health`);
    await new Promise((r) => setTimeout(r, 50));
  }
  // Before it stops: what it served.
  const server: LoopServer = {
    baseUrl,
    process: child,
    stop: async () => {
      served.set(impl, (await (await fetch(`${baseUrl}/__served`)).json()) as number[]);
      await child.stop();
    },
  };
  servers.set(impl, server);
  return server;
}

before(async () => {
  await runCases([c], {
    impls: IMPLS,
    // repeat is not the switched comparison's: its pairs are its own.
    options: { repeat: 1, warmupSeconds: WARMUP, switchedSlices: { pairs: REPEAT, sliceSeconds: SLICE, guardSeconds: GUARD } },
    orderKey: ORDER_KEY,
    limitSeconds: () => 60,
    startServer: startFake,
    startLoad: () => {
      throw new Error('a switched comparison starts no load per repetition');
    },
    startSwitched: (_c, running, order) => {
      orders.push(order);
      const env = {
        BASE_URL: running[0]!.baseUrl,
        SLICE_BASES: running.map((s) => s.baseUrl).join(' '),
        SLICE_ORDER: order,
        SLICE,
        SLICE_GUARD: GUARD,
        PROTOCOL: 'rest',
        ROWS: 1,
        JOINS: 0,
        MODEL: 'closed',
        VUS: 4,
        WARMUP,
        DURATION: order.length * SLICE,
        COMMENT_IDS: 100,
        USER_IDS: 10,
        CHECK_EVERY: 4,
      };
      return startK6(c.id, env, { script: SCRIPT, cores: null, workDir: dir, limitSeconds: 60 });
    },
    startBaseline: () => {
      throw new Error('no database-alone case here');
    },
    databaseDown: async () => undefined,
    recorded: async (_c, r) => {
      records = r;
    },
    stopping: () => false,
  });
});
after(async () => {
  await runCleanup();
  await rm(dir, { recursive: true, force: true });
});

test('one load for the case: 2 × REPEAT slices, each pair in the round order drawn for it', () => {
  assert.equal(orders.length, 1);
  const expected = Array.from({ length: REPEAT }, (_, k) =>
    interleavedOrder(IMPLS, k + 1, `${ORDER_KEY}|${c.id}`)
      .map((n) => IMPLS.indexOf(n))
      .join(''),
  ).join('');
  assert.equal(orders[0], expected);
  for (const name of IMPLS) {
    const reps = records!.get(name)!.repetitions;
    assert.equal(records!.get(name)!.failure, undefined);
    assert.deepEqual(
      reps.map((r) => r.index),
      Array.from({ length: REPEAT }, (_, k) => k + 1),
    );
    for (const r of reps) assert.equal(r.order, orders[0]![(r.index - 1) * 2] === String(IMPLS.indexOf(name)) ? 1 : 2);
  }
});

test("each slice's requests went to its own implementation, none to the other after the guard", () => {
  const a = records!.get('a')!.repetitions;
  const b = records!.get('b')!.repetitions;
  for (const [name, reps] of [
    ['a', a],
    ['b', b],
  ] as const) {
    const other = name === 'a' ? 'b' : 'a';
    for (const r of reps) {
      const slice = r.slice!;
      assert.ok(slice >= 1 && slice <= 2 * REPEAT, `repetition ${r.index} of ${name} names its slice`);
      assert.equal(orders[0]![slice - 1], String(IMPLS.indexOf(name)));
      assert.ok(r.requests > 20, `${name} slice ${slice}: ${r.requests} requests`);
      assert.equal(r.durationSeconds, SLICE - GUARD);
      assert.equal(r.requestTypes?.['commentById']?.requests, r.requests);
      const inWindow = (at: number[], from: number, to: number) => at.filter((t) => t >= from && t < to).length;
      // Its window: from the guard's end (startedAt) for the duration recorded.
      const from = Date.parse(r.startedAt);
      const to = from + r.durationSeconds * 1000;
      const own = inWindow(served.get(name)!, from, to);
      // Sent in the window (k6's tag) against received in it (the server's clock): those of a few ms at each edge.
      assert.ok(Math.abs(own - r.requests) <= 8 + r.requests * 0.01, `${name} slice ${slice}: k6 counted ${r.requests}, the server received ${own}`);
      assert.equal(inWindow(served.get(other)!, from + 50, to), 0, `${other} received requests in ${name}'s slice ${slice}`);
    }
  }
});

test("each slice's server CPU is its own implementation's: B's 400 µs burn shows in every pair", () => {
  const cpu = (name: string, index: number) => records!.get(name)!.repetitions.find((r) => r.index === index)!.cpuPerRequestUs!.server!;
  for (let index = 1; index <= REPEAT; index++) {
    assert.ok(cpu('b', index) > cpu('a', index) + 250, `pair ${index}: a ${cpu('a', index)} µs, b ${cpu('b', index)} µs per request`);
  }
});

test("a switched summary's slices: each its window after the guard, its requests and its errors by status", () => {
  const count = (n: number) => ({ values: { count: n } });
  const m = measuredFromK6({
    setup_data: { measureFrom: 1_000_000 },
    measureUntil: 1_004_000,
    slices: { order: '10', seconds: 2, guardSeconds: 0.5 },
    metrics: {
      'http_reqs{phase:measure,slice:s1}': count(300),
      'http_reqs{phase:measure,slice:s2}': count(200),
      'errors{phase:measure,slice:s1,status:503}': count(3),
      'errors{phase:measure,slice:s1,status:check}': count(1),
      'errors{phase:measure,slice:s2,status:503}': count(0),
    },
  });
  assert.deepEqual(
    m.slices?.map((s) => ({
      side: s.side,
      window: s.measured.window,
      requests: s.measured.requests,
      errors: s.measured.errors,
      throughput: s.measured.throughput,
    })),
    [
      { side: 1, window: { from: 1_000_500, to: 1_002_000 }, requests: 300, errors: { '503': 3, check: 1 }, throughput: 197.333 },
      { side: 0, window: { from: 1_002_500, to: 1_004_000 }, requests: 200, errors: {}, throughput: 133.333 },
    ],
  );
});
