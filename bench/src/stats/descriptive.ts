// Order statistics over small samples (a run has 1–10 repetitions per case).

/** Ascending copy; the input is left alone. */
export function sorted(values: readonly number[]): number[] {
  return [...values].sort((a, b) => a - b);
}

export function median(values: readonly number[]): number {
  return quantile(values, 0.5);
}

/**
 * The p-quantile with linear interpolation between order statistics (Hyndman & Fan
 * type 7: R's default, numpy's "linear"), so median([1,2,3,4]) = 2.5.
 */
export function quantile(values: readonly number[], p: number): number {
  if (values.length === 0) throw new Error('quantile of an empty sample');
  if (!(p >= 0 && p <= 1)) throw new Error(`quantile: p=${p} is outside [0, 1]`);
  const s = sorted(values);
  const h = (s.length - 1) * p;
  const lo = Math.floor(h);
  const hi = Math.ceil(h);
  return s[lo]! + (h - lo) * (s[hi]! - s[lo]!);
}

export function mean(values: readonly number[]): number {
  if (values.length === 0) throw new Error('mean of an empty sample');
  return values.reduce((a, b) => a + b, 0) / values.length;
}

export function max(values: readonly number[]): number {
  return values.reduce((a, b) => Math.max(a, b), -Infinity);
}

export function min(values: readonly number[]): number {
  return values.reduce((a, b) => Math.min(a, b), Infinity);
}
