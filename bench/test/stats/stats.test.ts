// The statistics against answers computed another way: closed-form order statistics,
// and the exact bootstrap distribution of a median (binomial counts), which the
// Monte Carlo bootstrap must reproduce.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  adjustFamily,
  benjaminiHochberg,
  bootstrapMedian,
  bootstrapRatioOfMedians,
  compareGroups,
  CONFIDENCE,
  mannWhitney,
  mean,
  median,
  percentileInterval,
  quantile,
} from '../../src/stats/index.ts';

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

test('two clearly different implementations: the ratio interval is exact and excludes 1; the rank test calls it', () => {
  const a = [4120, 4050, 4210, 3980, 4170, 4090, 4140]; // req/s
  const b = [3010, 3120, 2950, 3080, 3040, 2970, 3100];
  const exact = exactRatioInterval(a, b);
  const alpha = (1 - CONFIDENCE) / 2;
  for (const s of exact.steps) assert.ok(Math.abs(s - alpha) > 0.004 && Math.abs(s - (1 - alpha)) > 0.004, `step ${s} too close`);
  const estimate = bootstrapRatioOfMedians(a, b, { key: 'clear' });
  assert.equal(estimate.ratio, 4120 / 3040);
  assert.deepEqual(estimate.ci, { low: exact.low, high: exact.high });
  const compared = compareGroups(a, b, { key: 'clear', higherIsBetter: true });
  assert.deepEqual(compared.ci, estimate.ci, 'the same interval beside the verdict');
  // Complete separation of 7 against 7: p = 2 / C(14, 7).
  assert.ok(Math.abs(compared.test!.p - 2 / 3432) < 1e-15);
  assert.equal(compared.rawVerdict, 'faster');
  assert.equal(compareGroups(b, a, { key: 'clear', higherIsBetter: true }).rawVerdict, 'slower');
  // As latency (lower is better), a higher A is the slower one.
  assert.equal(compareGroups(a, b, { key: 'clear', higherIsBetter: false }).rawVerdict, 'slower');
});

test('two overlapping implementations: no significant difference', () => {
  const a = [812, 790, 845, 801, 779];
  const b = [805, 830, 786, 799, 820];
  const estimate = compareGroups(a, b, { key: 'overlap', higherIsBetter: true });
  assert.ok(estimate.ci!.low < 1 && estimate.ci!.high > 1);
  assert.equal(estimate.rawVerdict, 'no significant difference');
});

test('one or two repetitions: too few to say; three or four: an interval, descriptive only', () => {
  const estimate = compareGroups([4100, 4150], [3000, 3050, 2990], { key: 'few', higherIsBetter: true });
  assert.equal(estimate.ci, null);
  assert.equal(estimate.ratio, 4125 / 3000);
  assert.equal(estimate.rawVerdict, 'too few repetitions');
  // Separated completely, 4 against 4: the interval excludes 1, yet no verdict.
  const four = compareGroups([4100, 4150, 4120, 4090], [3000, 3050, 2990, 3020], { key: 'four', higherIsBetter: true });
  assert.ok(four.ci!.low > 1);
  assert.equal(four.test, null);
  assert.equal(four.rawVerdict, 'descriptive');
  assert.equal(adjustFamily([four])[0]!.verdict, 'descriptive');
});

/** The two-sided p of the rank sum by listing every split of the pooled values (another way than counting). */
function bruteForceP(a: number[], b: number[]): number {
  const pooled = [...a, ...b];
  const rank = (v: number) => {
    const below = pooled.filter((x) => x < v).length;
    const equal = pooled.filter((x) => x === v).length;
    return below + (equal + 1) / 2;
  };
  const ranks = pooled.map(rank);
  const n = a.length;
  const mu = (n * (pooled.length + 1)) / 2;
  const observed = Math.abs(ranks.slice(0, n).reduce((s, r) => s + r, 0) - mu);
  let extreme = 0;
  let all = 0;
  const choose = (start: number, left: number, sum: number): void => {
    if (left === 0) {
      all++;
      if (Math.abs(sum - mu) >= observed - 1e-9) extreme++;
      return;
    }
    for (let i = start; i <= pooled.length - left; i++) choose(i + 1, left - 1, sum + ranks[i]!);
  };
  choose(0, n, 0);
  return extreme / all;
}

test('the exact Mann–Whitney p: the smallest ones, ties, and every split listed', () => {
  const seq = (n: number, from = 0) => Array.from({ length: n }, (_, i) => from + i);
  assert.equal(mannWhitney(seq(3), seq(3, 10)).p, 0.1, '3 against 3 can show nothing at 5%');
  assert.ok(Math.abs(mannWhitney(seq(5), seq(5, 10)).p - 2 / 252) < 1e-15);
  assert.ok(Math.abs(mannWhitney(seq(10), seq(10, 10)).p - 2 / 184756) < 1e-15);
  assert.deepEqual(mannWhitney([5, 5, 5], [5, 5, 5]), { u: 4.5, p: 1, direction: 0, ties: true, exact: true });
  const cases: [number[], number[]][] = [
    [
      [1, 1, 2],
      [2, 3, 3],
    ],
    [
      [812, 790, 845, 801, 779],
      [805, 830, 786, 799, 820],
    ],
    [
      [4, 4, 5, 3, 4, 6],
      [5, 5, 6, 4, 7, 5, 6],
    ],
    [
      [10.2, 9.8, 10.1, 10.4, 9.9, 10.0],
      [10.6, 10.3, 10.9, 10.5, 10.2, 10.7],
    ],
  ];
  for (const [a, b] of cases) {
    const t = mannWhitney(a, b);
    assert.ok(Math.abs(t.p - bruteForceP(a, b)) < 1e-12, `${a} vs ${b}: ${t.p} vs ${bruteForceP(a, b)}`);
    assert.equal(
      t.u,
      a.reduce((s, x) => s + b.reduce((k, y) => k + (x > y ? 1 : x === y ? 0.5 : 0), 0), 0),
    );
  }
});

test('large samples: the normal approximation agrees with the exact count', () => {
  const a = Array.from({ length: 30 }, (_, i) => 100 + ((i * 37) % 23) + i / 10);
  const b = Array.from({ length: 30 }, (_, i) => 103 + ((i * 29) % 19) + i / 7);
  const exact = mannWhitney(a, b);
  const approx = mannWhitney(a, b, { exactMaxTotal: 0 });
  assert.ok(exact.exact && !approx.exact);
  assert.ok(exact.p > 0.001 && exact.p < 0.5, `a p worth comparing: ${exact.p}`);
  assert.ok(Math.abs(exact.p - approx.p) < 0.01, `${exact.p} vs ${approx.p}`);
  const tied = (xs: number[]) => xs.map((x) => Math.round(x / 4));
  const exactTied = mannWhitney(tied(a), tied(b));
  assert.ok(exactTied.ties);
  assert.ok(Math.abs(exactTied.p - mannWhitney(tied(a), tied(b), { exactMaxTotal: 0 }).p) < 0.01);
});

test('Benjamini–Hochberg: the step-up adjustment, against values computed by hand', () => {
  assert.deepEqual(benjaminiHochberg([0.01, 0.04, 0.03, 0.005]), [0.02, 0.04, 0.04, 0.02]);
  assert.deepEqual(benjaminiHochberg([0.5, 0.9]), [0.9, 0.9]);
  assert.deepEqual(benjaminiHochberg([]), []);
  assert.deepEqual(benjaminiHochberg([0.001, 0.8, 0.9, 0.95]), [0.004, 0.95, 0.95, 0.95]);
});

test('a family: a verdict found alone may not survive the adjustment; found many times, it does', () => {
  const separated = (k: number) =>
    compareGroups(
      [1, 2, 3, 4, 5].map((x) => x + 100 + k),
      [1, 2, 3, 4, 5],
      { key: `s${k}`, higherIsBetter: true },
    );
  const overlapping = (k: number) => compareGroups([1, 3, 5, 7, 9], [2, 4, 6, 8, 10 + k], { key: `o${k}`, higherIsBetter: true });
  // One separated comparison among 15 overlapping ones: raw p = 0.0079 → 0.0079·16 > 0.05.
  const lonely = adjustFamily([separated(0), ...Array.from({ length: 15 }, (_, k) => overlapping(k))]);
  assert.equal(lonely[0]!.rawVerdict, 'faster');
  assert.equal(lonely[0]!.verdict, 'no significant difference');
  assert.ok(Math.abs(lonely[0]!.pAdjusted! - (16 * 2) / 252) < 1e-12);
  assert.equal(lonely[0]!.familySize, 16);
  // Eight of sixteen separated: each adjusted p = 0.0079·16/8 = 0.016.
  const many = adjustFamily([...Array.from({ length: 8 }, (_, k) => separated(k)), ...Array.from({ length: 8 }, (_, k) => overlapping(k))]);
  assert.deepEqual(
    many.map((c) => c.verdict),
    [...Array(8).fill('faster'), ...Array(8).fill('no significant difference')],
  );
});
