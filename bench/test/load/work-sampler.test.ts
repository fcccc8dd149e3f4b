// The work sampler: readings through a load, and a window's work from the readings that
// enclose it (with how far they lay from its ends); a reader that fails gives a reason, not work.
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { test } from 'node:test';
import type { WorkReader, WorkSnapshot } from '@fairbench/harness/work/index.ts';
import { WorkSampler } from '../../src/load/work-sampler.ts';

/**
 * A database doing one unit of work a millisecond since `t0`. Its reader reads the counter as
 * it begins and answers `latencyMs` later (a reading in flight, as a busy server's takes).
 */
function fakeReader(t0: number, latencyMs = 0): WorkReader & { closed: boolean; readingSince: number | undefined; t0: number } {
  return {
    t0,
    closed: false,
    readingSince: undefined,
    async snapshot(): Promise<WorkSnapshot> {
      const readFrom = Date.now();
      this.readingSince = readFrom;
      if (latencyMs) await sleep(latencyMs);
      this.readingSince = undefined;
      const counters = { rows: { value: Math.max(0, readFrom - this.t0), scope: 'database' as const } };
      return { engine: 'E', database: 'd', readFrom, at: Date.now(), counters, unavailable: {}, readerCost: {} };
    },
    async close() {
      this.closed = true;
    },
  };
}

test('a window inside the load: the work between the readings that enclose it, and their distance from its ends', async () => {
  const reader = fakeReader(Date.now());
  const sampler = new WorkSampler(reader, 20);
  await sampler.start();
  await sleep(100);
  const from = Date.now();
  await sleep(200);
  const to = Date.now();
  await sleep(100);
  await sampler.stop();
  assert.equal(reader.closed, true);
  const work = sampler.between(from, to);
  assert.ok(typeof work !== 'string', String(work));
  assert.equal(work.seconds, (to - from) / 1000);
  const rows = work.counters['rows']!.value;
  // The readings are at most ~20 ms (the interval, plus timer jitter) off each end, outside it: all of its work and a little more.
  assert.equal(work.enclosing, true);
  assert.ok(work.edgeSeconds! <= 0.1, `edges ${work.edgeSeconds}`);
  assert.ok(rows >= to - from - 1 && rows <= to - from + 1000 * work.edgeSeconds! + 1, `${rows} units of work in ${to - from} ms`);
});

test("a reading in flight at the window's end read its counters before the end: the window ends with the next one", async () => {
  // The work begins with the window (a load's first request), so nothing before it makes up for what the end would cut off.
  const reader = fakeReader(Infinity, 30);
  const sampler = new WorkSampler(reader, 5);
  await sampler.start();
  await sleep(50);
  const from = Date.now();
  reader.t0 = from;
  await sleep(150);
  // The end falls inside a reading, some ms after it read the counter.
  while (reader.readingSince === undefined || Date.now() - reader.readingSince < 5) await sleep(1);
  const to = Date.now();
  await sleep(100);
  await sampler.stop();
  const work = sampler.between(from, to);
  assert.ok(typeof work !== 'string', String(work));
  const rows = work.counters['rows']!.value;
  assert.ok(rows >= to - from, `${rows} units of work in a window of ${to - from} ms: none of it cut off`);
  assert.ok(rows <= to - from + 1000 * work.edgeSeconds!, `${rows} units, edges ${work.edgeSeconds} s`);
});

test('no window without two readings around it; a failing reader says why', async () => {
  const failing: WorkReader = {
    snapshot: () => Promise.reject(new Error('connection refused')),
    close: async () => {},
  };
  const sampler = new WorkSampler(failing, 20);
  await sampler.start();
  await sampler.stop();
  assert.match(String(sampler.between(0, 1)), /could not be read: connection refused/);
  const short = new WorkSampler(fakeReader(0), 1_000);
  await short.start();
  const t = Date.now();
  await short.stop();
  assert.match(String(short.between(t + 10_000, t + 20_000)), /no two readings around the window/);
});
