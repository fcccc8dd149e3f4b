// Lanes: a command split into child processes, N at once, each child's output kept whole.
import assert from 'node:assert/strict';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { cpuSecondsOfStat } from '../src/cli/lane-cpu.ts';
import { laneWidth, reportLanes, runLanes, type LaneOutcome } from '../src/cli/lanes.ts';

test('the lane width: FAIRBENCH_LANES, else one per core up to two, and never more than one inside a lane', () => {
  assert.equal(laneWidth({}, 2), 2);
  assert.equal(laneWidth({}, 1), 1);
  assert.equal(laneWidth({}, 16), 2);
  assert.equal(laneWidth({ FAIRBENCH_LANES: '1' }, 2), 1);
  assert.equal(laneWidth({ FAIRBENCH_LANES: '3' }, 2), 3);
  assert.equal(laneWidth({ FAIRBENCH_IN_LANE: 'express', FAIRBENCH_LANES: '2' }, 2), 1);
  assert.throws(() => laneWidth({ FAIRBENCH_LANES: '0' }, 2), /FAIRBENCH_LANES/);
});

test('every lane runs, two at once; a failing lane does not stop the others; each log holds its own output', async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'lanes-'));
  const script = path.join(dir, 'child.mjs');
  // Each child records when it ran, so the test can see how many overlapped.
  await writeFile(
    script,
    `const [name, ms, code] = process.argv.slice(2);
     const t0 = Date.now(); await new Promise((r) => setTimeout(r, Number(ms)));
     console.log(JSON.stringify({ name, lane: process.env.FAIRBENCH_IN_LANE, t0, t1: Date.now() }));
     process.exit(Number(code));`,
  );
  const lanes = [
    { name: 'a', args: ['a', '400', '0'] },
    { name: 'b', args: ['b', '400', '3'] },
    { name: 'c', args: ['c', '400', '0'] },
  ];
  const outcomes = await runLanes('lanes-test', script, lanes, 2);
  assert.deepEqual(outcomes.map((o) => [o.name, o.exitCode]).sort(), [
    ['a', 0],
    ['b', 3],
    ['c', 0],
  ]);
  const runs = await Promise.all(
    outcomes.map(async (o) => JSON.parse(await readFile(o.logFile, 'utf8')) as { name: string; lane: string; t0: number; t1: number }),
  );
  for (const [i, r] of runs.entries()) assert.equal(r.lane, outcomes[i]!.name, 'each child knows it is in a lane, and its log is its own');
  const byName = new Map(runs.map((r) => [r.name, r]));
  const [a, b, c] = ['a', 'b', 'c'].map((n) => byName.get(n)!);
  assert.ok(a!.t0 < b!.t1 && b!.t0 < a!.t1, 'the first two overlap');
  assert.ok(c!.t0 >= Math.min(a!.t1, b!.t1) - 50, 'the third waits for a free lane');
  assert.equal(reportLanes('lanes-test', outcomes), false);
  assert.equal(
    reportLanes(
      'lanes-test',
      outcomes.filter((o) => o.exitCode === 0),
    ),
    true,
  );
});

/** A child that sleeps 300 ms and prints its lane's start and end times. */
async function timedChild(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'lanes-'));
  const script = path.join(dir, 'child.mjs');
  await writeFile(
    script,
    `const t0 = Date.now(); await new Promise((r) => setTimeout(r, 300));
     console.log(JSON.stringify({ lane: process.env.FAIRBENCH_IN_LANE, t0, t1: Date.now() }));`,
  );
  return script;
}

/** Each lane's start and end, read from its log. */
async function laneTimes(outcomes: readonly LaneOutcome[]): Promise<Map<string, { t0: number; t1: number }>> {
  return new Map(
    await Promise.all(
      outcomes.map(async (o) => {
        const r = JSON.parse(await readFile(o.logFile, 'utf8')) as { lane: string; t0: number; t1: number };
        return [r.lane, r] as const;
      }),
    ),
  );
}

test('two lanes of one group never run at once: the next free lane of another group goes first', async () => {
  const script = await timedChild();
  const lanes = [
    { name: 'x-1', group: 'x', args: [] },
    { name: 'x-2', group: 'x', args: [] },
    { name: 'y-1', group: 'y', args: [] },
  ];
  const outcomes = await runLanes('lanes-group-test', script, lanes, 2);
  const runs = await laneTimes(outcomes);
  const [x1, x2, y1] = ['x-1', 'x-2', 'y-1'].map((n) => runs.get(n)!);
  assert.ok(x2!.t0 >= x1!.t1 - 50, 'x-2 waits for x-1');
  assert.ok(y1!.t0 < x1!.t1, 'y-1 runs beside x-1, ahead of x-2');
});

test('one mostly idle lane runs beside the two that compute; a second waits for it, or for a slot', async () => {
  const script = await timedChild();
  const lanes = [
    { name: 'c-1', args: [] },
    { name: 'c-2', args: [] },
    { name: 'idle-1', args: [], mostlyIdle: true as const },
    { name: 'idle-2', args: [], mostlyIdle: true as const },
    { name: 'c-3', args: [] },
  ];
  const runs = await laneTimes(await runLanes('lanes-idle-test', script, lanes, 2));
  const [c1, c2, i1, i2, c3] = ['c-1', 'c-2', 'idle-1', 'idle-2', 'c-3'].map((n) => runs.get(n)!);
  assert.ok(i1!.t0 < c1!.t1 && i1!.t0 < c2!.t1, 'idle-1 starts beside c-1 and c-2');
  assert.ok(i2!.t0 >= Math.min(c1!.t1, c2!.t1, i1!.t1) - 50, 'idle-2 waits for the place beside them or a slot');
  assert.ok(c3!.t0 >= Math.min(c1!.t1, c2!.t1) - 50, 'c-3 waits for a slot: the idle lanes hold none of the two');
  // One lane wide: one at a time, the idle lane too.
  const one = await laneTimes(await runLanes('lanes-idle-test', script, [lanes[0]!, lanes[2]!], 1));
  assert.ok(one.get('idle-1')!.t0 >= one.get('c-1')!.t1 - 50 || one.get('c-1')!.t0 >= one.get('idle-1')!.t1 - 50, 'width 1: one at a time');
});

test('a lane waits for the lanes it names in `after`; lanes that can never start are an error, not a hang', async () => {
  const script = await timedChild();
  const lanes = [
    { name: 'reads', args: [], after: ['writes'] },
    { name: 'writes', args: [] },
    { name: 'other', args: [] },
  ];
  const outcomes = await runLanes('lanes-after-test', script, lanes, 2);
  const runs = await laneTimes(outcomes);
  assert.ok(runs.get('reads')!.t0 >= runs.get('writes')!.t1 - 50, 'reads starts after writes ended');
  assert.ok(runs.get('other')!.t0 < runs.get('writes')!.t1, 'other ran beside writes, ahead of reads');
  await assert.rejects(runLanes('lanes-after-test', script, [{ name: 'a', args: [], after: ['missing'] }], 2), /not in the pool: missing/);
  await assert.rejects(
    runLanes('lanes-after-test', script, [
      { name: 'a', args: [], after: ['b'] },
      { name: 'b', args: [], after: ['a'] },
    ]),
    /wait for each other: a, b/,
  );
});

test(
  "a lane's CPU: its own and what its children used, read from /proc at its exit",
  { skip: process.platform !== 'linux' && 'Linux only: /proc/self/stat' },
  async () => {
    // Field 2 may hold spaces and parentheses: utime, stime, cutime, cstime are fields 14-17.
    const stat = `4242 (node (lane) x) S 1 2 3 4 5 6 7 8 9 10 150 50 300 100 20 0 1`;
    assert.equal(cpuSecondsOfStat(stat), 6);
    const dir = await mkdtemp(path.join(os.tmpdir(), 'lanes-cpu-'));
    const script = path.join(dir, 'burn.mjs');
    // The lane idles 0.3 s and has a child burn about 1 s of CPU: only the child's work is CPU.
    await writeFile(
      script,
      `import { execFileSync } from 'node:child_process';
     await new Promise((r) => setTimeout(r, 300));
     execFileSync(process.execPath, ['-e', 'const t = Date.now(); while (Date.now() - t < 1000) {}']);`,
    );
    const burning = (await runLanes('lanes-cpu-test', script, [{ name: 'burn', args: [] }], 1))[0]!;
    const idle = await idleLane(dir);
    assert.ok(burning.cpuSeconds !== undefined && burning.cpuSeconds >= 1, `the child's second counted: ${burning.cpuSeconds}`);
    assert.ok(idle.cpuSeconds !== undefined && idle.cpuSeconds < 1, `an idle lane costs little: ${idle.cpuSeconds}`);
  },
);

async function idleLane(dir: string): Promise<LaneOutcome> {
  const script = path.join(dir, 'idle.mjs');
  await writeFile(script, 'await new Promise((r) => setTimeout(r, 1200));');
  return (await runLanes('lanes-cpu-test', script, [{ name: 'idle', args: [] }], 1))[0]!;
}
