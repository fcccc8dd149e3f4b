// Paired statistics over interleaved slices: when A and B ran in alternating short slices
// (repetition r of A right beside repetition r of B, their order randomized), the pair's
// ratio A_r / B_r is measured under the same machine state, and the slow drift of a shared
// machine (other jobs, frequency, the database's caches) cancels out of it. The comparison
// is then on the pairs' log ratios d_r = ln(A_r / B_r):
// - the test: Wilcoxon's signed-rank test, exact (midranks for ties, zeros dropped), the
//   paired counterpart of the Mann–Whitney test the unpaired verdicts use; its smallest
//   two-sided p is 2 / 2ⁿ: 0.0625 at 5 pairs (no verdict), 0.031 at 6, 0.002 at 10;
// - the size: the Hodges–Lehmann estimate (the median of the Walsh averages (d_i + d_j)/2)
//   with its distribution-free interval, the Walsh averages of ranks k+1 and M−k where k is
//   the signed-rank test's lower critical value (Hollander & Wolfe); exponentiated, a ratio.
// The verdict rule is verdict.ts's (decide, adjustFamily): only the test and the interval differ.
import { median } from './descriptive.ts';
import { pairedMde } from './precision.ts';
import { CONFIDENCE, type Interval } from './bootstrap.ts';
import { decide, type ComparisonEstimate, type RankComparison } from './verdict.ts';
import type { RankTest } from './rank-test.ts';

/** From this many pairs the signed-rank test can reach p < 0.05 (2/2⁶ = 0.031). */
export const MIN_PAIRS = 6;
/**
 * From this many pairs the report compares two implementations of one run pairwise (the
 * slices profile's); below it, as two groups of repetitions (Mann–Whitney): at 5 pairs the
 * signed-rank test could declare nothing, where 5 against 5 unpaired can.
 */
export const PAIRED_FROM = 10;
/** Up to this many non-zero pairs the distribution is counted exactly. */
export const EXACT_MAX_PAIRS = 200;

/** Counts of each sum of doubled ranks over the 2ⁿ sign assignments (subset sums). */
function signedRankCounts(doubledRanks: readonly number[]): Float64Array {
  const total = doubledRanks.reduce((a, b) => a + b, 0);
  const counts = new Float64Array(total + 1);
  counts[0] = 1;
  let reach = 0;
  for (const r of doubledRanks) {
    reach += r;
    for (let s = reach; s >= r; s--) counts[s]! += counts[s - r]!;
  }
  return counts;
}

/** Wilcoxon's signed-rank test of the differences `d` against 0 (two-sided, exact). */
export function signedRank(d: readonly number[]): RankTest {
  if (d.some((x) => !Number.isFinite(x))) throw new Error('signedRank: a difference is not a finite number');
  const nonZero = d.filter((x) => x !== 0);
  const n = nonZero.length;
  if (n === 0) return { u: 0, p: 1, direction: 0, ties: d.length > 0, exact: true };
  const order = nonZero.map((v, i) => ({ a: Math.abs(v), i })).sort((x, y) => x.a - y.a);
  const ranks = new Array<number>(n);
  for (let start = 0; start < n;) {
    let end = start;
    while (end + 1 < n && order[end + 1]!.a === order[start]!.a) end++;
    for (let k = start; k <= end; k++) ranks[order[k]!.i] = start + end + 2; // doubled midrank
    start = end + 1;
  }
  const total = ranks.reduce((a, b) => a + b, 0);
  const t2 = nonZero.reduce((s, v, i) => s + (v > 0 ? ranks[i]! : 0), 0);
  const mean2 = total / 2;
  const direction = t2 > mean2 ? 1 : t2 < mean2 ? -1 : 0;
  const ties = new Set(ranks).size < n || nonZero.length < d.length;
  const distance = Math.abs(t2 - mean2);
  if (n <= EXACT_MAX_PAIRS) {
    const counts = signedRankCounts(ranks);
    let extreme = 0;
    let all = 0;
    for (let s = 0; s < counts.length; s++) {
      if (!counts[s]) continue;
      all += counts[s]!;
      if (Math.abs(s - mean2) >= distance - 1e-9) extreme += counts[s]!;
    }
    return { u: t2 / 2, p: Math.min(1, extreme / all), direction, ties, exact: true };
  }
  // Normal approximation: Var(T) = Σ r² / 4 with midranks r (doubled ranks / 2).
  const variance = ranks.reduce((s, r) => s + (r / 2) ** 2, 0) / 4;
  const z = Math.max(0, distance / 2 - 0.5) / Math.sqrt(variance);
  const erfc = (x: number) => {
    const t = 1 / (1 + 0.3275911 * x);
    return ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * Math.exp(-x * x);
  };
  return { u: t2 / 2, p: Math.min(1, erfc(z / Math.SQRT2)), direction, ties, exact: false };
}

/**
 * The signed-rank test's lower critical value for n pairs: the largest c with
 * P(T ≤ c) ≤ (1 − confidence)/2 under the null (no ties); −1 when none exists (n ≤ 5 at 95%).
 */
export function signedRankCritical(n: number, confidence = CONFIDENCE): number {
  const counts = signedRankCounts(Array.from({ length: n }, (_, i) => i + 1));
  const all = 2 ** n;
  const alpha = (1 - confidence) / 2;
  let cumulative = 0;
  let c = -1;
  for (let s = 0; s < counts.length; s++) {
    cumulative += counts[s]!;
    if (cumulative / all <= alpha + 1e-12) c = s;
    else break;
  }
  return c;
}

/** The Hodges–Lehmann estimate of the differences' centre and its signed-rank interval (null below MIN_PAIRS). */
export function hodgesLehmann(d: readonly number[], confidence = CONFIDENCE): { estimate: number; ci: Interval | null } {
  if (d.length === 0) throw new Error('hodgesLehmann: no differences');
  const walsh: number[] = [];
  for (let i = 0; i < d.length; i++) for (let j = i; j < d.length; j++) walsh.push((d[i]! + d[j]!) / 2);
  walsh.sort((a, b) => a - b);
  const estimate = median(walsh);
  const c = signedRankCritical(d.length, confidence);
  if (d.length < MIN_PAIRS || c < 0) return { estimate, ci: null };
  return { estimate, ci: { low: walsh[c]!, high: walsh[walsh.length - 1 - c]! } };
}

export interface PairedFields {
  /** The comparison is over pairs of adjacent slices (same index in both groups). */
  paired: true;
  /** How many pairs. */
  pairs: number;
}

/**
 * A against B over pairs (a[i] beside b[i]): the ratio is exp(Hodges–Lehmann of the log
 * ratios) with its interval, the test the signed-rank test, the MDE from the log ratios'
 * spread. Same shape as compareGroups' answer, so the report and adjustFamily take it as is.
 */
export function comparePaired(
  a: readonly number[],
  b: readonly number[],
  options: { higherIsBetter: boolean; confidence?: number },
): ComparisonEstimate & PairedFields {
  if (a.length !== b.length) throw new Error(`comparePaired: ${a.length} against ${b.length} values are not pairs`);
  if (a.length === 0) throw new Error('comparePaired: no pairs');
  if ([...a, ...b].some((x) => !(Number.isFinite(x) && x > 0))) throw new Error('comparePaired: the values must be positive');
  const d = a.map((x, i) => Math.log(x / b[i]!));
  const hl = hodgesLehmann(d, options.confidence);
  const test = a.length >= MIN_PAIRS ? signedRank(d) : null;
  const c: RankComparison = {
    nA: a.length,
    nB: b.length,
    medianA: median(a),
    medianB: median(b),
    ratio: Math.exp(hl.estimate),
    higherIsBetter: options.higherIsBetter,
    test,
    rawVerdict: 'descriptive',
  };
  return {
    ...c,
    ci: hl.ci ? { low: Math.exp(hl.ci.low), high: Math.exp(hl.ci.high) } : null,
    rawVerdict: decide(c, test?.p ?? null),
    mde: pairedMde(a, b),
    paired: true,
    pairs: a.length,
  };
}
