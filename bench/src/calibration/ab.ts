// One calibration comparison: two calibration servers (server.ts), A at the base cost and B
// at `extraPercent` more CPU per request (or each side its own revision of the server), loaded by one k6 process in randomized interleaved
// slices (bench/k6/calibration.js: each pair of adjacent slices A B or B A, the order drawn
// per pair, balanced in blocks of two pairs). Per slice: the rate k6 measured, its p95, and
// the active server's CPU µs per request (its own cpuUsage series). Then each quantity is
// compared paired over the slices (stats/paired.ts) and, for what pairing buys, as two
// independent groups of the same slices (stats/verdict.ts' compareGroups).
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from '@fairbench/harness/ports.ts';
import { startProcess, type ManagedProcess } from '@fairbench/harness/process.ts';
import { tcpAccepts } from '@fairbench/harness/provision/local/support.ts';
import { repoRoot } from '@fairbench/harness/paths.ts';
import { startK6 } from '../load/k6.ts';
import { pinned, type Placement } from '../load/placement.ts';
import { adjustFamily, compareGroups, comparePaired, type Adjusted, type ComparisonEstimate } from '../stats/index.ts';
import { seededIndexSource } from '../stats/random.ts';

const SCRIPT = join(repoRoot, 'bench', 'k6', 'calibration.js');
const SERVER = join(repoRoot, 'bench', 'src', 'calibration', 'server.ts');

export interface AbOptions {
  /** burn() steps per request of A (B: × (1 + extraPercent/100)). */
  readonly iterations: number;
  readonly extraPercent: number;
  /**
   * The extra burn B gets, in percent of A's burn steps, when it is not extraPercent: the
   * runner's probe (cli/calibrate.ts) converts "percent of the whole request's CPU" into it,
   * since Node's HTTP handling costs CPU beside the burn.
   */
  readonly burnExtraPercent?: number;
  /** Pairs of slices (each pair: one slice of A and one of B). */
  readonly pairs: number;
  readonly sliceSeconds: number;
  /** Seconds at each slice's start left out of its figures (the switch's transient). */
  readonly guardSeconds: number;
  readonly warmupSeconds: number;
  readonly vus: number;
  readonly placement: Placement;
  readonly workDir: string;
  /** Names the order's random stream (reproducible). */
  readonly key: string;
  /** Each side's server script, when it is not this calibration server (another revision's copy of it). */
  readonly scripts?: { readonly A: string; readonly B: string };
}

export interface Slice {
  index: number;
  side: 'A' | 'B';
  requests: number;
  throughput: number;
  p95Ms: number;
  cpuUsPerRequest: number;
}

export type Quantity = 'throughput' | 'p95' | 'cpu';
export const QUANTITIES: readonly Quantity[] = ['throughput', 'p95', 'cpu'];

export interface AbResult {
  extraPercent: number;
  order: string;
  slices: Slice[];
  /** Paired over the slices, adjusted over the three quantities (one family per comparison). */
  paired: Record<Quantity, ComparisonEstimate & Adjusted>;
  /** The same slices as two independent groups (Mann–Whitney, bootstrap), adjusted alike. */
  unpaired: Record<Quantity, ComparisonEstimate & Adjusted>;
}

/** Each pair's order, drawn at random but balanced: every block of two pairs has one AB and one BA. */
export function sliceOrder(pairs: number, key: string): string {
  const source = seededIndexSource(`calibration-order|${key}`);
  let order = '';
  for (let p = 0; p < pairs; p += 2) {
    const first = source.index(2) === 0 ? 'AB' : 'BA';
    order += first;
    if (p + 1 < pairs) order += first === 'AB' ? 'BA' : 'AB';
  }
  return order;
}

/** The series' value at time t, interpolated linearly between its samples. */
export function at(series: readonly (readonly [number, number, number])[], t: number, column: 1 | 2): number {
  const i = series.findIndex((s) => s[0] >= t);
  if (i === -1) return series.at(-1)![column];
  if (i === 0) return series[0]![column];
  const [t0, ...v0] = series[i - 1]!;
  const [t1, ...v1] = series[i]!;
  const f = t1 === t0 ? 1 : (t - t0) / (t1 - t0);
  return v0[column - 1]! + f * (v1[column - 1]! - v0[column - 1]!);
}

async function startServer(name: 'A' | 'B', iterations: number, extraPercent: number, o: AbOptions): Promise<{ url: string; process: ManagedProcess }> {
  const port = await freePort();
  const script = o.scripts?.[name] ?? SERVER;
  const [command, args] = pinned(o.placement.implementation, process.execPath, [script, String(port), String(iterations), String(extraPercent)]);
  const child = startProcess({ name: `calibration server ${name}`, command, args, logFile: join(o.workDir, `server-${name}.log`) });
  const deadline = Date.now() + 15_000;
  while (!(await tcpAccepts(port))) {
    if (!child.alive() || Date.now() > deadline) throw new Error(`calibration server ${name} did not listen on ${port}: ${await child.tail(5)}`);
    await sleep(50);
  }
  return { url: `http://127.0.0.1:${port}`, process: child };
}

async function series(url: string): Promise<[number, number, number][]> {
  const res = await fetch(`${url}/__series`);
  return (await res.json()) as [number, number, number][];
}

export async function runAb(o: AbOptions): Promise<AbResult> {
  const order = sliceOrder(o.pairs, o.key);
  const a = await startServer('A', o.iterations, 0, o);
  const b = await startServer('B', o.iterations, o.burnExtraPercent ?? o.extraPercent, o).catch(async (e: unknown) => {
    await a.process.stop();
    throw e;
  });
  try {
    const k6 = startK6(
      'calibration',
      { BASE_A: a.url, BASE_B: b.url, ORDER: order, SLICE: o.sliceSeconds, GUARD: o.guardSeconds, VUS: o.vus, WARMUP: o.warmupSeconds },
      {
        script: SCRIPT,
        cores: o.placement.generator,
        workDir: o.workDir,
        limitSeconds: o.warmupSeconds + order.length * o.sliceSeconds + 60,
      },
    );
    const measured = await k6.done;
    const s = { A: await series(a.url), B: await series(b.url) };
    const from = measured.window.from;
    const slices: Slice[] = [...order].map((ch, i) => {
      const side = ch as 'A' | 'B';
      const type = measured.requestTypes?.[`s${i + 1}`];
      const t0 = from + (i * o.sliceSeconds + o.guardSeconds) * 1000;
      const t1 = from + (i + 1) * o.sliceSeconds * 1000;
      const seconds = o.sliceSeconds - o.guardSeconds;
      const cpu = at(s[side], t1, 1) - at(s[side], t0, 1);
      const served = at(s[side], t1, 2) - at(s[side], t0, 2);
      return {
        index: i + 1,
        side,
        requests: type?.requests ?? 0,
        throughput: (type?.requests ?? 0) / seconds,
        p95Ms: type?.latencyMs.p95 ?? Number.NaN,
        cpuUsPerRequest: served > 0 ? cpu / served : Number.NaN,
      };
    });
    return { extraPercent: o.extraPercent, order, slices, ...compareSlices(slices, o.key) };
  } finally {
    await a.process.stop();
    await b.process.stop();
  }
}

const OF: Record<Quantity, { of: (s: Slice) => number; higherIsBetter: boolean }> = {
  throughput: { of: (s) => s.throughput, higherIsBetter: true },
  p95: { of: (s) => s.p95Ms, higherIsBetter: false },
  cpu: { of: (s) => s.cpuUsPerRequest, higherIsBetter: false },
};

/** B against A (verdicts are B's: a costlier B is "slower"), paired by pair index and as groups. */
export function compareSlices(slices: readonly Slice[], key: string): Pick<AbResult, 'paired' | 'unpaired'> {
  const pairs: [Slice, Slice][] = [];
  for (let i = 0; i + 1 < slices.length; i += 2) {
    const x = slices[i]!;
    const y = slices[i + 1]!;
    const [sa, sb] = x.side === 'A' ? [x, y] : [y, x];
    if ([sa, sb].every((s) => QUANTITIES.every((q) => Number.isFinite(OF[q].of(s)) && OF[q].of(s) > 0))) pairs.push([sa, sb]);
  }
  const paired = adjustFamily(
    QUANTITIES.map((q) =>
      comparePaired(
        pairs.map(([, sb]) => OF[q].of(sb)),
        pairs.map(([sa]) => OF[q].of(sa)),
        { higherIsBetter: OF[q].higherIsBetter },
      ),
    ),
  );
  const unpaired = adjustFamily(
    QUANTITIES.map((q) =>
      compareGroups(
        pairs.map(([, sb]) => OF[q].of(sb)),
        pairs.map(([sa]) => OF[q].of(sa)),
        { key: `${key}|${q}`, higherIsBetter: OF[q].higherIsBetter },
      ),
    ),
  );
  const byQuantity = (xs: (ComparisonEstimate & Adjusted)[]) =>
    Object.fromEntries(QUANTITIES.map((q, i) => [q, xs[i]!])) as Record<Quantity, ComparisonEstimate & Adjusted>;
  return { paired: byQuantity(paired), unpaired: byQuantity(unpaired) };
}
