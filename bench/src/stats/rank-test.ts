// The Mann–Whitney U (Wilcoxon rank-sum) test of two groups of repetitions: exact for the
// sample sizes a run has, ties included. The null distribution is the permutation
// distribution of the rank sum given the observed ranks (midranks for ties): every split
// of the pooled values into groups of the observed sizes is equally likely when both
// groups come from one distribution. So the test keeps its level at any n, with or
// without ties; only its smallest attainable p-value depends on n (2 / C(nA+nB, nA):
// 0.1 at 3 against 3, 0.0079 at 5 against 5, 1.1e-5 at 10 against 10).

export interface RankTest {
  /** U of A: the number of pairs (a, b) with a > b, ties counting ½. */
  u: number;
  /** Two-sided: P(|W − E W| ≥ |w − E W|) under the permutation distribution of the rank sum W. */
  p: number;
  /** Whether A tends to be higher (U above nA·nB/2), lower, or neither. */
  direction: 1 | -1 | 0;
  ties: boolean;
  /** false beyond EXACT_MAX_TOTAL pooled values: the normal approximation with the tie correction. */
  exact: boolean;
}

/** Up to this many pooled values the distribution is counted exactly (a few million steps at most). */
export const EXACT_MAX_TOTAL = 60;

/** Doubled midranks of the pooled sample (integers: a midrank is a whole or a half number). */
function doubledRanks(pooled: readonly number[]): number[] {
  const order = pooled.map((v, i) => ({ v, i })).sort((x, y) => x.v - y.v);
  const ranks = new Array<number>(pooled.length);
  for (let start = 0; start < order.length;) {
    let end = start;
    while (end + 1 < order.length && order[end + 1]!.v === order[start]!.v) end++;
    // Ranks start+1 … end+1 share their mean; doubled: (start + 1) + (end + 1).
    for (let k = start; k <= end; k++) ranks[order[k]!.i] = start + end + 2;
    start = end + 1;
  }
  return ranks;
}

/**
 * The number of ways each doubled rank sum arises from choosing `n` of `ranks`:
 * a subset-sum count, item by item (the knapsack recurrence over size and sum).
 */
function rankSumCounts(ranks: readonly number[], n: number): Float64Array[] {
  const maxSum = ranks.reduce((a, b) => a + b, 0);
  const counts = Array.from({ length: n + 1 }, () => new Float64Array(maxSum + 1));
  counts[0]![0] = 1;
  let reach = 0;
  for (const r of ranks) {
    reach += r;
    for (let k = n; k >= 1; k--) {
      const from = counts[k - 1]!;
      const to = counts[k]!;
      for (let s = reach; s >= r; s--) if (from[s - r]) to[s]! += from[s - r]!;
    }
  }
  return counts;
}

/** The distributions counted so far, by group size and tie pattern: without ties every n, m pair has one. */
const distributions = new Map<string, Float64Array>();
const CACHE_LIMIT = 512;

/** Counts of each doubled rank sum of `n` values chosen from `ranks` (the pooled sample's). */
function nullDistribution(ranks: readonly number[], n: number, ties: boolean): Float64Array {
  // Without ties the pooled ranks are 1…N whatever the values: the sizes say it all.
  const key = ties ? `${n}|${[...ranks].sort((x, y) => x - y).join(',')}` : `${n}|${ranks.length}`;
  let counts = distributions.get(key);
  if (!counts) {
    counts = rankSumCounts(ranks, n)[n]!;
    if (distributions.size >= CACHE_LIMIT) distributions.clear();
    distributions.set(key, counts);
  }
  return counts;
}

/** Φ(x), the standard normal CDF (Abramowitz–Stegun 7.1.26 on erf, error < 1.5e-7). */
function normalCdf(x: number): number {
  const z = Math.abs(x) / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * z);
  const erf = 1 - ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * Math.exp(-z * z);
  return x >= 0 ? (1 + erf) / 2 : (1 - erf) / 2;
}

/** `exactMaxTotal`: the EXACT_MAX_TOTAL to use (the tests compare both methods on one sample). */
export function mannWhitney(a: readonly number[], b: readonly number[], { exactMaxTotal = EXACT_MAX_TOTAL } = {}): RankTest {
  const nA = a.length;
  const nB = b.length;
  if (nA === 0 || nB === 0) throw new Error('mannWhitney: an empty group');
  if ([...a, ...b].some((x) => !Number.isFinite(x))) throw new Error('mannWhitney: a value is not a finite number');
  const ranks = doubledRanks([...a, ...b]);
  const total = nA + nB;
  const w2 = ranks.slice(0, nA).reduce((s, r) => s + r, 0);
  const mean2 = nA * (total + 1); // E[2W]
  const u = w2 / 2 - (nA * (nA + 1)) / 2;
  const direction = w2 > mean2 ? 1 : w2 < mean2 ? -1 : 0;
  const ties = new Set(ranks).size < total;
  const distance = Math.abs(w2 - mean2);
  if (total <= exactMaxTotal) {
    const counts = nullDistribution(ranks, nA, ties);
    let extreme = 0;
    let all = 0;
    for (let s = 0; s < counts.length; s++) {
      if (!counts[s]) continue;
      all += counts[s]!;
      // Integers on both sides: no tolerance needed.
      if (Math.abs(s - mean2) >= distance) extreme += counts[s]!;
    }
    return { u, p: Math.min(1, extreme / all), direction, ties, exact: true };
  }
  // Large samples: W is near normal; the variance with the tie correction Σ(t³ − t).
  const tieSizes = new Map<number, number>();
  for (const r of ranks) tieSizes.set(r, (tieSizes.get(r) ?? 0) + 1);
  const tieTerm = [...tieSizes.values()].reduce((s, t) => s + t ** 3 - t, 0);
  const variance = ((nA * nB) / 12) * (total + 1 - tieTerm / (total * (total - 1)));
  if (variance <= 0) return { u, p: 1, direction, ties, exact: false };
  const z = Math.max(0, distance / 2 - 0.5) / Math.sqrt(variance); // with the continuity correction
  return { u, p: Math.min(1, 2 * (1 - normalCdf(z))), direction, ties, exact: false };
}
