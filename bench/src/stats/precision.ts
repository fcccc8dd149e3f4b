// The precision of a comparison, measured from its own spread: the minimum detectable
// effect (MDE), the smallest relative difference the comparison would have declared in
// POWER (80%) of the runs at the verdicts' two-sided level (α = 0.05), had it been there.
//
// On the log scale (a ratio of medians is a difference of logs) with standard error SE and
// df degrees of freedom:
//
//   MDE = exp( (t(1 − α/2; df) + t(POWER; df)) · SE · √(π/3) ) − 1
//
// - t(·; df): Student's t quantiles (a table up to 30, Cornish–Fisher beyond);
// - √(π/3) ≈ 1.023: the verdicts come from rank tests, whose asymptotic relative
//   efficiency against the t-test on normal data is 3/π (Mann–Whitney and the signed-rank
//   test alike), so they need π/3 times the repetitions for the same power;
// - unpaired groups (separate repetitions): SE = s_pooled · √(1/nA + 1/nB) of the logs,
//   df = nA + nB − 2;
// - paired slices (adjacent slices of A and B, paired.ts): SE = s_d / √n of the pairs'
//   log ratios d, df = n − 1. Drift between pairs is out of s_d: that is what pairing buys.
//
// It is the precision of ONE comparison at its raw level; the Benjamini–Hochberg adjustment
// over a family raises the bar (a lone difference in a family of m needs p ≤ α/m), so the
// family's MDE is larger; bench/docs/precision.md says how to read it. It is no input to any verdict.
import { mean } from './descriptive.ts';

/** The power at which the detectable difference is stated (the usual 80%). */
export const POWER = 0.8;

/** Rank test against t-test on normal data (3/π): the MDE is scaled by √(π/3). */
export const RANK_EFFICIENCY = 3 / Math.PI;

// Student's t quantiles for df = 1…30 (standard tables, 3 decimals).
const T975 = [
  12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.16, 2.145, 2.131, 2.12, 2.11, 2.101, 2.093, 2.086, 2.08, 2.074, 2.069,
  2.064, 2.06, 2.056, 2.052, 2.048, 2.045, 2.042,
];
const T80 = [
  1.376, 1.061, 0.978, 0.941, 0.92, 0.906, 0.896, 0.889, 0.883, 0.879, 0.876, 0.873, 0.87, 0.868, 0.866, 0.865, 0.863, 0.862, 0.861, 0.86, 0.859, 0.858, 0.858,
  0.857, 0.856, 0.856, 0.855, 0.855, 0.854, 0.854,
];
const Z = { 0.975: 1.959964, 0.8: 0.841621 } as const;

/** t(p; df) for p = 0.975 or 0.8: the table up to df 30, Cornish–Fisher's expansion beyond (error < 0.001). */
export function tQuantile(p: 0.975 | 0.8, df: number): number {
  if (!(df >= 1)) throw new Error(`tQuantile: df=${df}`);
  const d = Math.floor(df);
  if (d <= 30) return (p === 0.975 ? T975 : T80)[d - 1]!;
  const z = Z[p];
  return z + (z ** 3 + z) / (4 * d) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * d * d);
}

/** The detectable shift on the log scale for a standard error and its degrees of freedom. */
export function detectableLogShift(se: number, df: number): number {
  return (tQuantile(0.975, df) + tQuantile(0.8, df)) * se * Math.sqrt(1 / RANK_EFFICIENCY);
}

/** As a relative difference: 0.05 = a 5% difference (in whichever direction). */
export const relativeOf = (logShift: number): number => Math.exp(logShift) - 1;

function sampleVariance(xs: readonly number[]): number {
  const m = mean(xs);
  return xs.reduce((s, x) => s + (x - m) ** 2, 0) / (xs.length - 1);
}

const positive = (xs: readonly number[]) => xs.every((x) => Number.isFinite(x) && x > 0);

/** MDE of two independent groups of repetitions (relative); null below 2 in a group or for non-positive values. */
export function unpairedMde(a: readonly number[], b: readonly number[]): number | null {
  if (a.length < 2 || b.length < 2 || !positive(a) || !positive(b)) return null;
  const la = a.map(Math.log);
  const lb = b.map(Math.log);
  const df = a.length + b.length - 2;
  const pooled = ((a.length - 1) * sampleVariance(la) + (b.length - 1) * sampleVariance(lb)) / df;
  return relativeOf(detectableLogShift(Math.sqrt(pooled * (1 / a.length + 1 / b.length)), df));
}

/** MDE of paired slices (relative), from the spread of the pairs' log ratios; null below 3 pairs. */
export function pairedMde(a: readonly number[], b: readonly number[]): number | null {
  if (a.length !== b.length) throw new Error('pairedMde: the groups are not paired');
  if (a.length < 3 || !positive(a) || !positive(b)) return null;
  const d = a.map((x, i) => Math.log(x / b[i]!));
  return relativeOf(detectableLogShift(Math.sqrt(sampleVariance(d) / d.length), d.length - 1));
}
