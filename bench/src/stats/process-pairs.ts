// A comparison whose unit is the process pair. Slices of one pair of processes cancel the
// machine's drift but not a difference between the two processes themselves: two processes
// of one program can differ for their whole life (code layout, the JIT's choices, which
// other job shared their core; bench/docs/precision.md), so a verdict drawn from one pair
// of processes is a verdict about those two processes. With K pairs of processes, each
// started afresh, the comparison is a two-level experiment (Kalibera & Jones, "Rigorous
// Benchmarking in Reasonable Time", ISMM 2013): slices within a process pair, process pairs
// within the case. Its analysis takes one figure per process pair — d_k, the Hodges–Lehmann
// estimate of its slices' log ratios ln(A/B) — and compares the K figures to 0:
// - the size: exp(mean d_k), with Student's t interval on K − 1 degrees of freedom;
// - the test: Student's one-sample t-test of the d_k (two-sided); a rank test could not
//   decide at these K (the signed-rank test's smallest p is 0.0625 at 5);
// - the precision: the MDE from the d_k's standard error (precision.ts, no rank factor).
// The spread of the d_k holds both levels; the within-process spread is reported beside it,
// so that the report can say how much of the interval the processes add.
import jStat from 'jstat';
import { mean, median } from './descriptive.ts';
import { hodgesLehmann } from './paired.ts';
import { POWER, relativeOf } from './precision.ts';
import { CONFIDENCE } from './bootstrap.ts';
import { decide, type ComparisonEstimate, type RankComparison } from './verdict.ts';

/** From this many process pairs the t-test decides; below, the comparison is descriptive. */
export const MIN_PROCESS_PAIRS = 3;

/** One process pair's slices: a[i] beside b[i]. */
export interface ProcessPairSlices {
  readonly a: readonly number[];
  readonly b: readonly number[];
}

export interface ProcessPairFields {
  /** How many process pairs the comparison has. */
  processPairs: number;
  /** Standard deviation of the process pairs' log ratios d_k: both levels' spread. */
  betweenSd: number;
  /**
   * What the d_k's standard deviation would be from the slices alone: the pooled within-pair
   * standard deviation of the slices' log ratios over √(slices per pair); null with fewer
   * than 2 slices in every pair. betweenSd well above it is a difference between processes.
   */
  withinSd: number | null;
}

function sampleSd(xs: readonly number[]): number {
  const m = mean(xs);
  return Math.sqrt(xs.reduce((s, x) => s + (x - m) ** 2, 0) / (xs.length - 1));
}

/** The pooled standard deviation of each pair's slice log ratios over √(its mean slice count). */
function withinSdOf(ratios: readonly (readonly number[])[]): number | null {
  const usable = ratios.filter((d) => d.length >= 2);
  if (usable.length === 0) return null;
  const df = usable.reduce((s, d) => s + d.length - 1, 0);
  const pooled = usable.reduce((s, d) => s + sampleSd(d) ** 2 * (d.length - 1), 0) / df;
  const perPair = mean(usable.map((d) => d.length));
  return Math.sqrt(pooled / perPair);
}

/**
 * A against B over K process pairs: the ratio, its t interval and test, the MDE, and both
 * levels' spread. Same shape as compareGroups' answer, so the report and adjustFamily take it as is.
 */
export function compareProcessPairs(
  pairs: readonly ProcessPairSlices[],
  options: { higherIsBetter: boolean; confidence?: number },
): ComparisonEstimate & ProcessPairFields {
  if (pairs.length === 0) throw new Error('compareProcessPairs: no process pair');
  const ratios = pairs.map(({ a, b }, k) => {
    if (a.length !== b.length || a.length === 0) throw new Error(`compareProcessPairs: process pair ${k + 1} has ${a.length} against ${b.length} slices`);
    if ([...a, ...b].some((x) => !(Number.isFinite(x) && x > 0))) throw new Error('compareProcessPairs: the values must be positive');
    return a.map((x, i) => Math.log(x / b[i]!));
  });
  const d = ratios.map((r) => hodgesLehmann(r).estimate);
  const k = d.length;
  const centre = mean(d);
  const all = (side: 'a' | 'b') => pairs.flatMap((p) => p[side]);
  const base: RankComparison = {
    nA: all('a').length,
    nB: all('b').length,
    medianA: median(all('a')),
    medianB: median(all('b')),
    ratio: Math.exp(centre),
    higherIsBetter: options.higherIsBetter,
    test: null,
    rawVerdict: 'descriptive',
  };
  const betweenSd = k >= 2 ? sampleSd(d) : 0;
  const fields: ProcessPairFields = { processPairs: k, betweenSd, withinSd: withinSdOf(ratios) };
  if (k < MIN_PROCESS_PAIRS) return { ...base, ci: null, mde: null, ...fields };
  const df = k - 1;
  const se = betweenSd / Math.sqrt(k);
  const t = se > 0 ? centre / se : centre === 0 ? 0 : Math.sign(centre) * Infinity;
  const p = Math.min(1, 2 * (1 - jStat.studentt.cdf(Math.abs(t), df)));
  const direction = centre > 0 ? 1 : centre < 0 ? -1 : 0;
  const c: RankComparison = { ...base, test: { p, direction } };
  const half = jStat.studentt.inv(1 - (1 - (options.confidence ?? CONFIDENCE)) / 2, df) * se;
  return {
    ...c,
    ci: { low: Math.exp(centre - half), high: Math.exp(centre + half) },
    rawVerdict: decide(c, p),
    mde: relativeOf((jStat.studentt.inv(0.975, df) + jStat.studentt.inv(POWER, df)) * se),
    ...fields,
  };
}
