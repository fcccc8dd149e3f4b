// The statistics against answers computed another way: closed-form order statistics,
// and the exact bootstrap distribution of a median (binomial counts), which the
// Monte Carlo bootstrap must reproduce.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  bootstrapMedian,
  bootstrapRatioOfMedians,
  CONFIDENCE,
  mean,
  median,
  percentileInterval,
  quantile,
  verdict,
} from '../src/stats/index.ts';

test('median and type-7 quantiles match their textbook values', () => {
  assert.equal(median([3, 1, 2]), 2);
  assert.equal(median([4, 1, 3, 2]), 2.5);
  const oneToTen = [10, 9, 8, 7, 6, 5, 4, 3, 2, 1];
  // 1 + p·(n−1) for 1..n: numpy.percentile([1..10], 95) = 9.55, 99 → 9.91
  assert.ok(Math.abs(quantile(oneToTen, 0.95) - 9.55) < 1e-12);
  assert.ok(Math.abs(quantile(oneToTen, 0.99) - 9.91) < 1e-12);
  assert.equal(quantile(oneToTen, 0), 1);
  assert.equal(quantile(oneToTen, 1), 10);
  assert.equal(mean([1, 2, 3, 4]), 2.5);
  assert.throws(() => median([]));
});

test('the percentile interval is the inverse empirical CDF at 2.5% and 97.5%', () => {
  const stats = Float64Array.from({ length: 1000 }, (_, i) => 1000 - i); // 1..1000, shuffled order irrelevant
  assert.deepEqual(percentileInterval(stats, 0.95), { low: 25, high: 975 });
});

function binomialTail(n: number, p: number, atLeast: number): number {
  let sum = 0;
  for (let j = atLeast; j <= n; j++) {
    let c = 1;
    for (let i = 0; i < j; i++) c = (c * (n - i)) / (i + 1);
    sum += c * p ** j * (1 - p) ** (n - j);
  }
  return sum;
}

/** P(resampled median ≤ x_(k)) for an odd sample of distinct values: at least (n+1)/2 of n draws among the k smallest. */
function exactMedianCdf(n: number): number[] {
  return Array.from({ length: n }, (_, i) => binomialTail(n, (i + 1) / n, (n + 1) / 2));
}

function exactPercentile(values: number[], cdf: number[], p: number): number {
  const s = [...values].sort((a, b) => a - b);
  return s[cdf.findIndex((c) => c >= p)]!;
}

test('the bootstrap interval of a median equals the exact bootstrap distribution’s percentiles', () => {
  const values = [812, 790, 845, 801, 779, 830, 822, 795, 808, 851, 786]; // n = 11
  const cdf = exactMedianCdf(values.length);
  const alpha = (1 - CONFIDENCE) / 2;
  // The Monte Carlo percentiles can only land on the exact ones when no CDF step sits near α or 1−α.
  for (const c of cdf) assert.ok(Math.abs(c - alpha) > 0.005 && Math.abs(c - (1 - alpha)) > 0.005, `CDF step ${c} too close`);
  const expected = { low: exactPercentile(values, cdf, alpha), high: exactPercentile(values, cdf, 1 - alpha) };
  const estimate = bootstrapMedian(values, { key: 'test' });
  assert.equal(estimate.median, 808);
  assert.deepEqual(estimate.ci, expected);
  assert.ok(expected.low < 808 && expected.high > 808);
});

test('the same key gives the same interval; too few repetitions give none', () => {
  const values = [5.1, 4.8, 5.6, 5.0, 4.7, 5.3];
  assert.deepEqual(bootstrapMedian(values, { key: 'k' }), bootstrapMedian(values, { key: 'k' }));
  assert.deepEqual(bootstrapMedian([51, 48], { key: 'k' }), { n: 2, median: 49.5, ci: null });
});

/** The exact percentile interval of median(A)/median(B): the product of the two exact median distributions. */
function exactRatioInterval(a: number[], b: number[]): { low: number; high: number; steps: number[] } {
  const pmf = (values: number[]) => {
    const cdf = exactMedianCdf(values.length);
    const s = [...values].sort((x, y) => x - y);
    return s.map((v, i) => ({ v, p: cdf[i]! - (i > 0 ? cdf[i - 1]! : 0) }));
  };
  const joint = pmf(a)
    .flatMap((x) => pmf(b).map((y) => ({ r: x.v / y.v, p: x.p * y.p })))
    .sort((x, y) => x.r - y.r);
  let c = 0;
  const steps = joint.map((j) => (c += j.p));
  const at = (p: number) => joint[steps.findIndex((s) => s >= p)]!.r;
  const alpha = (1 - CONFIDENCE) / 2;
  return { low: at(alpha), high: at(1 - alpha), steps };
}

test('two clearly different implementations: the ratio interval is exact and excludes 1', () => {
  const a = [4120, 4050, 4210, 3980, 4170, 4090, 4140]; // req/s
  const b = [3010, 3120, 2950, 3080, 3040, 2970, 3100];
  const exact = exactRatioInterval(a, b);
  const alpha = (1 - CONFIDENCE) / 2;
  for (const s of exact.steps) assert.ok(Math.abs(s - alpha) > 0.004 && Math.abs(s - (1 - alpha)) > 0.004, `step ${s} too close`);
  const estimate = bootstrapRatioOfMedians(a, b, { key: 'clear' });
  assert.equal(estimate.ratio, 4120 / 3040);
  assert.deepEqual(estimate.ci, { low: exact.low, high: exact.high });
  assert.equal(verdict(estimate, true), 'faster');
  assert.equal(verdict(bootstrapRatioOfMedians(b, a, { key: 'clear' }), true), 'slower');
  // As latency (lower is better), a higher A is the slower one.
  assert.equal(verdict(estimate, false), 'slower');
});

test('two overlapping implementations: no significant difference', () => {
  const a = [812, 790, 845, 801, 779];
  const b = [805, 830, 786, 799, 820];
  const estimate = bootstrapRatioOfMedians(a, b, { key: 'overlap' });
  assert.ok(estimate.ci!.low < 1 && estimate.ci!.high > 1);
  assert.equal(verdict(estimate, true), 'no significant difference');
});

test('one or two repetitions: too few to say', () => {
  const estimate = bootstrapRatioOfMedians([4100, 4150], [3000, 3050, 2990], { key: 'few' });
  assert.equal(estimate.ci, null);
  assert.equal(estimate.ratio, 4125 / 3000);
  assert.equal(verdict(estimate, true), 'too few repetitions');
});
