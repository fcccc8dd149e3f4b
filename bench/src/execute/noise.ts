// The machine's state before the cases start: load average, CPU frequency governor and
// clock, and any other process busy enough to disturb the measurement. A process is
// "heavy" when, over one second sampled from /proc, it used at least HEAVY_CPU_PERCENT
// of a core and is not this harness or one of its children (the database, nginx): on a
// shared 2-core machine such a process takes CPU from whatever it lands next to.
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { CLK_TCK, snapshot, treeOf, type Stat } from '../load/proc-sampler.ts';
import type { MachineNoise } from '../record/result-document.ts';

export const HEAVY_CPU_PERCENT = 25;
const WINDOW_MS = 1_000;

function read(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    return undefined;
  }
}

/** Processes other than `own`'s tree that used at least `threshold`% of a core between two snapshots. */
export function heavyProcesses(
  before: ReadonlyMap<number, Stat>,
  after: ReadonlyMap<number, Stat>,
  seconds: number,
  own: number,
  threshold = HEAVY_CPU_PERCENT,
): MachineNoise['busyProcesses'] {
  const ours = new Set(treeOf(own, after));
  const busy: MachineNoise['busyProcesses'] = [];
  for (const [pid, s] of after) {
    if (ours.has(pid)) continue;
    const cpuPercent = ((s.ticks - (before.get(pid)?.ticks ?? s.ticks)) / CLK_TCK / seconds) * 100;
    if (cpuPercent >= threshold) busy.push({ pid, command: read(`/proc/${pid}/comm`) ?? '?', cpuPercent: Math.round(cpuPercent) });
  }
  return busy.sort((a, b) => b.cpuPercent - a.cpuPercent);
}

/** Samples the machine for one second. */
export async function machineNoise(): Promise<MachineNoise> {
  const before = snapshot();
  const from = Date.now();
  await sleep(WINDOW_MS);
  const after = snapshot();
  const governor = read('/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor');
  const mhz = os
    .cpus()
    .map((c) => c.speed)
    .filter((s) => s > 0);
  return {
    loadAverage: os.loadavg().map((l) => Math.round(l * 100) / 100),
    governor: governor ?? null,
    ...(mhz.length ? { cpuMHz: Math.round(mhz.reduce((a, b) => a + b, 0) / mhz.length) } : {}),
    busyProcesses: heavyProcesses(before, after, (Date.now() - from) / 1000, process.pid),
  };
}

/** The one loud line when something else is busy or the machine is loaded; undefined when quiet. */
export function noiseWarning(n: MachineNoise, cores = os.availableParallelism()): string | undefined {
  const reasons: string[] = [];
  if (n.busyProcesses.length)
    reasons.push(
      `${n.busyProcesses.length} other process${n.busyProcesses.length === 1 ? '' : 'es'} busy (${n.busyProcesses
        .slice(0, 3)
        .map((p) => `${p.command} pid ${p.pid} ${p.cpuPercent}%`)
        .join(', ')})`,
    );
  if ((n.loadAverage[0] ?? 0) >= cores) reasons.push(`load average ${n.loadAverage[0]} on ${cores} cores`);
  return reasons.length ? `WARNING: the machine is not quiet: ${reasons.join('; ')}: the numbers of this run may carry their noise` : undefined;
}
