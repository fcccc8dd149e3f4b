// The wait before a repetition, on real processes: one busy for a while then idle, one
// busy throughout, and an idle one. CPU comes from /proc, as in a run.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { after, test } from 'node:test';
import { settle } from '../../src/execute/settle.ts';

const children: ChildProcess[] = [];
after(() => {
  for (const c of children) c.kill('SIGKILL');
});

/** A node process that spins for `busyMs` (forever when Infinity), then sleeps. */
function spinner(busyMs: number): number {
  const code = `const end = Date.now() + ${Number.isFinite(busyMs) ? busyMs : 1e12}; while (Date.now() < end); setTimeout(() => {}, 60000);`;
  const child = spawn(process.execPath, ['-e', code], { stdio: 'ignore' });
  children.push(child);
  return child.pid!;
}

test('a tree busy for 1.5 s is waited for, then found idle', async () => {
  const pid = spinner(1_500);
  const s = await settle([pid], 10);
  assert.equal(s.idle, true);
  assert.ok(s.seconds >= 1 && s.seconds < 4, `waited ${s.seconds} s`);
  assert.ok(s.cpuPercent < 5, `${s.cpuPercent}%`);
});

test('a tree busy throughout: the wait ends at its limit, not idle', async () => {
  const pid = spinner(Infinity);
  const s = await settle([pid], 1.5);
  assert.equal(s.idle, false);
  assert.ok(s.seconds >= 1.5 && s.seconds < 3, `waited ${s.seconds} s`);
  assert.ok(s.cpuPercent > 50, `${s.cpuPercent}%`);
});

test('idle trees together: one window', async () => {
  const [a, b] = [spinner(0), spinner(0)];
  await new Promise((r) => setTimeout(r, 500));
  const s = await settle([a, b], 10);
  assert.equal(s.idle, true);
  assert.ok(s.seconds < 1, `waited ${s.seconds} s`);
});
