// Percentile bootstrap over repetitions: a 95% interval for one median, and for the
// ratio of two medians (two implementations, or an implementation and the database
// alone). Resampling is with replacement within each group, the groups independently.
// The intervals give the size of a difference; whether there is one is the rank test's
// call (verdict.ts): with few repetitions these intervals are too narrow.
import { median } from './descriptive.ts';
import { seededIndexSource } from './random.ts';

export const RESAMPLES = 10_000;
export const CONFIDENCE = 0.95;
/**
 * Below this many repetitions in a group an interval says nothing: report "too few
 * repetitions". From here up to MIN_VERDICT_REPETITIONS (verdict.ts) it is descriptive only.
 */
export const MIN_REPETITIONS = 3;

export interface Interval {
  low: number;
  high: number;
}

export interface MedianEstimate {
  n: number;
  median: number;
  /** null when n < MIN_REPETITIONS */
  ci: Interval | null;
}

export interface BootstrapOptions {
  /** Names the PRNG stream (e.g. "forum|rest/closed/c100-r1-j0|express|throughput"). */
  key: string;
  resamples?: number;
  confidence?: number;
  seed?: number;
}

/** The median of `n` draws with replacement from `values`, using `scratch` as space. */
function resampledMedian(values: readonly number[], scratch: Float64Array, draw: (n: number) => number): number {
  const n = values.length;
  for (let i = 0; i < n; i++) scratch[i] = values[draw(n)]!;
  scratch.sort();
  const mid = n >> 1;
  return n % 2 === 1 ? scratch[mid]! : (scratch[mid - 1]! + scratch[mid]!) / 2;
}

/**
 * The percentile interval of a bootstrap distribution: the ⌈αB⌉-th and ⌈(1−α)B⌉-th
 * smallest of the B resampled statistics (the inverse of their empirical CDF), α = (1−confidence)/2.
 */
export function percentileInterval(statistics: Float64Array, confidence: number): Interval {
  const s = Float64Array.from(statistics).sort();
  const alpha = (1 - confidence) / 2;
  // The epsilon keeps 0.025 × 1000 (= 25.000000000000004 in binary) at rank 25.
  const at = (p: number) => s[Math.min(s.length - 1, Math.max(0, Math.ceil(p * s.length - 1e-9) - 1))]!;
  return { low: at(alpha), high: at(1 - alpha) };
}

export function bootstrapMedian(values: readonly number[], options: BootstrapOptions): MedianEstimate {
  const n = values.length;
  if (n === 0) throw new Error('bootstrapMedian: no values');
  const point = median(values);
  if (n < MIN_REPETITIONS) return { n, median: point, ci: null };
  const resamples = options.resamples ?? RESAMPLES;
  const source = seededIndexSource(options.key, options.seed);
  const draw = (k: number) => source.index(k);
  const scratch = new Float64Array(n);
  const stats = new Float64Array(resamples);
  for (let b = 0; b < resamples; b++) stats[b] = resampledMedian(values, scratch, draw);
  return { n, median: point, ci: percentileInterval(stats, options.confidence ?? CONFIDENCE) };
}

export interface RatioEstimate {
  nA: number;
  nB: number;
  medianA: number;
  medianB: number;
  /** median(A) / median(B) */
  ratio: number;
  /** The interval of the ratio; null when either group has fewer than MIN_REPETITIONS. */
  ci: Interval | null;
}

/** Bootstrap interval of median(A) / median(B), resampling A and B independently. */
export function bootstrapRatioOfMedians(a: readonly number[], b: readonly number[], options: BootstrapOptions): RatioEstimate {
  if (a.length === 0 || b.length === 0) throw new Error('bootstrapRatioOfMedians: an empty group');
  const medianA = median(a);
  const medianB = median(b);
  const base = { nA: a.length, nB: b.length, medianA, medianB, ratio: medianA / medianB };
  if (a.length < MIN_REPETITIONS || b.length < MIN_REPETITIONS) return { ...base, ci: null };
  const resamples = options.resamples ?? RESAMPLES;
  const source = seededIndexSource(options.key, options.seed);
  const draw = (k: number) => source.index(k);
  const scratchA = new Float64Array(a.length);
  const scratchB = new Float64Array(b.length);
  const stats = new Float64Array(resamples);
  for (let i = 0; i < resamples; i++) stats[i] = resampledMedian(a, scratchA, draw) / resampledMedian(b, scratchB, draw);
  return { ...base, ci: percentileInterval(stats, options.confidence ?? CONFIDENCE) };
}
