// The calibration A/B's arithmetic (src/calibration/ab.ts) on synthetic slices, and the
// calibration server's cost parameter on a real socket: B's extra steps cost extra CPU.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { at, compareSlices, type Slice } from '../../src/calibration/ab.ts';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { burn } from '../../src/calibration/server.ts';

const SERVER = join(import.meta.dirname, '..', '..', 'src', 'calibration', 'server.ts');

test('the series interpolated at a slice boundary', () => {
  const s: [number, number, number][] = [
    [1000, 0, 0],
    [1020, 200, 10],
    [1040, 600, 30],
  ];
  assert.equal(at(s, 1010, 1), 100);
  assert.equal(at(s, 1030, 2), 20);
  assert.equal(at(s, 900, 1), 0);
  assert.equal(at(s, 2000, 2), 30);
});

test('compareSlices: a 10% costlier B under drift is "slower" on CPU per request paired, and its MDE is stated', () => {
  const slices: Slice[] = [];
  for (let p = 0; p < 12; p++) {
    const machine = 1 + 0.3 * Math.sin(p); // the machine's drift: ±30% from pair to pair
    const noise = 1 + 0.01 * Math.cos(7 * p);
    const a = { side: 'A' as const, requests: 500, throughput: 500 / machine, p95Ms: 10 * machine, cpuUsPerRequest: 400 * machine };
    const b = { side: 'B' as const, requests: 450, throughput: 450 / machine, p95Ms: 11 * machine, cpuUsPerRequest: 440 * machine * noise };
    const [x, y] = p % 2 === 0 ? [a, b] : [b, a];
    slices.push({ index: 2 * p + 1, ...x }, { index: 2 * p + 2, ...y });
  }
  const { paired, unpaired } = compareSlices(slices, 'k');
  assert.equal(paired.cpu.verdict, 'slower');
  assert.equal(paired.throughput.verdict, 'slower');
  assert.ok(Math.abs(paired.cpu.ratio - 1.1) < 0.01, `${paired.cpu.ratio}`);
  assert.ok(paired.cpu.ci!.low > 1.08 && paired.cpu.ci!.high < 1.12);
  assert.ok(paired.cpu.mde! > 0 && paired.cpu.mde! < 0.02, `${paired.cpu.mde}`);
  // The same slices as two groups: the drift swamps the 10%.
  assert.equal(unpaired.cpu.verdict, 'no significant difference');
});

test('the calibration server: its extra percent costs more CPU per request (its own series, in its own process)', async () => {
  const measure = async (extra: number) => {
    const port = 40000 + Math.floor(Math.random() * 20000);
    const child = spawn(process.execPath, [SERVER, String(port), '400000', String(extra)], { stdio: 'ignore' });
    try {
      const url = `http://127.0.0.1:${port}`;
      for (let i = 0; ; i++) {
        try {
          await (await fetch(`${url}/`)).text();
          break;
        } catch (error) {
          if (i > 100) throw error;
          await sleep(50);
        }
      }
      for (let i = 0; i < 30; i++) await (await fetch(`${url}/`)).text(); // warm: burn() compiled
      const before = (await (await fetch(`${url}/__series`)).json()) as [number, number, number][];
      for (let i = 0; i < 60; i++) await (await fetch(`${url}/`)).text();
      const after = (await (await fetch(`${url}/__series`)).json()) as [number, number, number][];
      const [, cpu0, n0] = before.at(-1)!;
      const [, cpu1, n1] = after.at(-1)!;
      return (cpu1 - cpu0) / (n1 - n0);
    } finally {
      child.kill();
    }
  };
  const base = await measure(0);
  const quadrupled = await measure(300);
  // 4 × the burn: about 3.5-4 × the CPU on a quiet machine; a loaded one blurs it (bench/docs/precision.md), not this much.
  assert.ok(quadrupled / base > 2, `CPU per request ${base.toFixed(0)} → ${quadrupled.toFixed(0)} µs`);
  assert.notEqual(burn(10, 1), burn(11, 1));
});
