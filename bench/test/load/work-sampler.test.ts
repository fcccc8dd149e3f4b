// The work sampler: readings through a load, and a window's work from the readings that
// enclose it (with how far they lay from its ends); a reader that fails gives a reason, not work.
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { test } from 'node:test';
import type { WorkReader, WorkSnapshot } from '@fairbench/harness/work/index.ts';
import { WorkSampler } from '../../src/load/work-sampler.ts';

/** A database doing one unit of work a millisecond since `t0`; its reader costs one unit a reading. */
function fakeReader(t0: number): WorkReader & { closed: boolean } {
  return {
    closed: false,
    snapshot: async (): Promise<WorkSnapshot> => {
      const at = Date.now();
      return { engine: 'E', database: 'd', at, counters: { rows: { value: at - t0, scope: 'database' } }, unavailable: {}, readerCost: {} };
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
