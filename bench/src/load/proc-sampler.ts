// CPU% and RSS of whole process trees, sampled from /proc at a fixed rate (the forum
// paper ran `top -d 0.1`: 10 Hz). A tree is a root pid and all its descendants at each
// sample, so forked workers and helper processes count; CPU is utime+stime of every
// thread (from /proc/<pid>/stat), so 100% = one core fully busy.
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import type { Usage as DocumentUsage } from '../record/result-document.ts';

export interface Sample {
  /** Date.now() when taken. */
  readonly at: number;
  readonly cpuPercent: number;
  /** CPU seconds the tree used since the previous sample. */
  readonly cpuSeconds: number;
  readonly rssBytes: number;
}

/** What the sampler measures: the document's usage with every optional part filled in. */
export type Usage = Required<DocumentUsage>;

export const CLK_TCK = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
const PAGE_SIZE = Number(execFileSync('getconf', ['PAGESIZE'], { encoding: 'utf8' }).trim()) || 4096;

export interface Stat {
  readonly ppid: number;
  /** utime + stime, in clock ticks. */
  readonly ticks: number;
  readonly rssBytes: number;
}

function readStat(pid: number): Stat | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined; // gone between readdir and read
  }
  // "pid (comm) state ppid ..." — comm may hold spaces and parens.
  const f = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return { ppid: Number(f[1]), ticks: Number(f[11]) + Number(f[12]), rssBytes: Number(f[21]) * PAGE_SIZE };
}

/** Every live process's stat, keyed by pid. */
export function snapshot(): Map<number, Stat> {
  const stats = new Map<number, Stat>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const stat = readStat(Number(name));
    if (stat) stats.set(Number(name), stat);
  }
  return stats;
}

/** The root and its descendants in a snapshot. */
export function treeOf(root: number, stats: ReadonlyMap<number, Stat>): number[] {
  const children = new Map<number, number[]>();
  for (const [pid, s] of stats) children.set(s.ppid, [...(children.get(s.ppid) ?? []), pid]);
  const tree: number[] = [];
  const queue = stats.has(root) ? [root] : [];
  for (let pid = queue.shift(); pid !== undefined; pid = queue.shift()) {
    tree.push(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  return tree;
}

/**
 * Samples named process trees every 1000/hz ms until stop(). CPU% of a sample is the
 * CPU time the tree's processes used since the previous sample over the wall time
 * between them (a process that appeared in between counts from zero).
 */
export class TreeSampler {
  readonly hz: number;
  private readonly roots: Map<string, readonly number[]>;
  private readonly series = new Map<string, Sample[]>();
  private previous: { at: number; ticks: Map<number, number> } | undefined;
  private timer: NodeJS.Timeout | undefined;

  /** `roots`: each name's process, or processes (several k6 instances are one generator). */
  constructor(roots: Record<string, number | readonly number[]>, hz = 10) {
    this.hz = hz;
    this.roots = new Map(Object.entries(roots).map(([name, pids]) => [name, typeof pids === 'number' ? [pids] : pids]));
    for (const name of this.roots.keys()) this.series.set(name, []);
  }

  start(): void {
    this.tick();
    this.timer = setInterval(() => this.tick(), 1000 / this.hz);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.tick();
  }

  /** A tree's usage over samples taken within [from, to] (Date.now() values). */
  usage(name: string, from: number, to: number): Usage | undefined {
    const samples = (this.series.get(name) ?? []).filter((s) => s.at >= from && s.at <= to);
    if (samples.length === 0) return undefined;
    const cpu = samples.map((s) => s.cpuPercent);
    const rss = samples.map((s) => s.rssBytes);
    const round = (n: number) => Math.round(n * 10) / 10;
    return {
      cpuPercentPeak: round(Math.max(...cpu)),
      cpuPercentMean: round(cpu.reduce((a, b) => a + b, 0) / cpu.length),
      rssBytesPeak: Math.max(...rss),
      rssBytesMean: Math.round(rss.reduce((a, b) => a + b, 0) / rss.length),
      // Summed from the ticks, not from the rounded percentages: the per-request figure divides it.
      cpuSeconds: Math.round(samples.reduce((a, s) => a + s.cpuSeconds, 0) * 1000) / 1000,
      sampleHz: this.hz,
      samples: samples.map((s) => [Math.round(s.at - from) / 1000, round(s.cpuPercent), s.rssBytes]),
    };
  }

  /**
   * A tree's usage over exactly [from, to], for windows a few samples long (a switched
   * slice): its CPU seconds interpolated linearly at both ends between the samples around
   * them, its mean CPU% from those, peaks and RSS from the samples within.
   */
  usageBetween(name: string, from: number, to: number): Usage | undefined {
    const series = this.series.get(name) ?? [];
    const within = this.usage(name, from, to);
    if (!within || series.length === 0 || to <= from) return within;
    const cpuSeconds = cumulative(series, to) - cumulative(series, from);
    return {
      ...within,
      cpuPercentMean: Math.round((cpuSeconds / ((to - from) / 1000)) * 1000) / 10,
      cpuSeconds: Math.round(cpuSeconds * 1000) / 1000,
    };
  }

  private tick(): void {
    const at = Date.now();
    const stats = snapshot();
    const ticks = new Map<number, number>();
    for (const [name, roots] of this.roots) {
      let cpuTicks = 0;
      let rssBytes = 0;
      for (const pid of roots.flatMap((root) => treeOf(root, stats))) {
        const s = stats.get(pid)!;
        ticks.set(pid, s.ticks);
        cpuTicks += s.ticks - (this.previous?.ticks.get(pid) ?? 0);
        rssBytes += s.rssBytes;
      }
      if (this.previous) {
        const seconds = (at - this.previous.at) / 1000;
        const cpuSeconds = cpuTicks / CLK_TCK;
        const cpuPercent = seconds > 0 ? (cpuSeconds / seconds) * 100 : 0;
        this.series.get(name)!.push({ at, cpuPercent, cpuSeconds, rssBytes });
      }
    }
    this.previous = { at, ticks };
  }
}

/** The CPU seconds a series used from its first sample's start to t, interpolated within the sample spanning t. */
function cumulative(series: readonly Sample[], t: number): number {
  let sum = 0;
  let previousAt = series[0]!.at - (series[1] ? series[1].at - series[0]!.at : 0);
  for (const s of series) {
    if (s.at <= t) sum += s.cpuSeconds;
    else {
      if (t > previousAt) sum += (s.cpuSeconds * (t - previousAt)) / (s.at - previousAt);
      break;
    }
    previousAt = s.at;
  }
  return sum;
}
