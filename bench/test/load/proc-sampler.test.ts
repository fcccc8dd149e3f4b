// The /proc sampler against real processes: a shell whose child spins on the CPU.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { runCleanup } from '@fairbench/harness/cleanup.ts';
import { startProcess } from '@fairbench/harness/process.ts';
import { TreeSampler } from '../../src/load/proc-sampler.ts';

const dir = await mkdtemp(join(os.tmpdir(), 'fairbench-sampler-test-'));
after(async () => {
  await runCleanup();
  await rm(dir, { recursive: true, force: true });
});

test('samples a busy child of the root and an idle process apart, at about 10 Hz', async () => {
  // The busy loop is the shell's child: only a tree walk sees it.
  const busy = startProcess({ name: 'busy', command: 'sh', args: ['-c', `${process.execPath} -e 'for(;;){}' & wait`], logFile: join(dir, 'busy.log') });
  const idle = startProcess({ name: 'idle', command: 'sleep', args: ['30'], logFile: join(dir, 'idle.log') });
  await sleep(300);
  // What the spinning child really got: its CPU ticks over the window. On a loaded machine
  // that can be far below one core, so the sampler is held to this, not to 100%.
  const child = Number(readFileSync(`/proc/${busy.pid}/task/${busy.pid}/children`, 'utf8').trim().split(/\s+/)[0]);
  const ticks = () =>
    readFileSync(`/proc/${child}/stat`, 'utf8')
      .split(') ')[1]!
      .split(' ')
      .slice(11, 13)
      .reduce((a, v) => a + Number(v), 0);
  const sampler = new TreeSampler({ busy: busy.pid, idle: idle.pid }, 10);
  const from = Date.now();
  const ticksFrom = ticks();
  sampler.start();
  await sleep(1500);
  sampler.stop();
  const ticksTo = ticks();
  const to = Date.now();
  // USER_HZ is 100 on Linux: a tick is 10 ms of CPU.
  const actualPercent = ((ticksTo - ticksFrom) * 10 * 100) / (to - from);
  await busy.stop();
  await idle.stop();

  const b = sampler.usage('busy', from, to);
  const i = sampler.usage('idle', from, to);
  assert.ok(b && i);
  assert.ok(actualPercent > 5, `the spinning child got ${actualPercent.toFixed(1)}% of a core: too little to tell busy from idle`);
  assert.ok(Math.abs(b.cpuPercentMean - actualPercent) < 15, `busy tree mean CPU ${b.cpuPercentMean}%, the child's own ticks say ${actualPercent.toFixed(1)}%`);
  assert.ok(b.cpuPercentMean > i.cpuPercentMean + 5, `busy ${b.cpuPercentMean}% vs idle ${i.cpuPercentMean}%`);
  assert.ok(b.cpuPercentPeak >= b.cpuPercentMean);
  // CPU seconds from the ticks: the same as the child's own ticks, give or take the sample
  // just before the window and the other processes of the tree (the shell).
  const actualSeconds = (ticksTo - ticksFrom) / 100;
  assert.ok(Math.abs(b.cpuSeconds - actualSeconds) < 0.2, `busy tree ${b.cpuSeconds} CPU s, the child's ticks say ${actualSeconds}`);
  assert.ok(i.cpuSeconds < 0.05, `idle tree ${i.cpuSeconds} CPU s`);
  assert.ok(i.cpuPercentMean < 10, `idle mean CPU ${i.cpuPercentMean}%`);
  assert.ok(b.rssBytesPeak > 20 * 1024 * 1024, `busy tree RSS ${b.rssBytesPeak} includes the node child`);
  assert.ok(b.samples.length >= 10 && b.samples.length <= 18, `${b.samples.length} samples in 1.5 s`);
  assert.ok(b.samples.every(([t]) => t >= 0 && t <= (to - from) / 1000));
});
