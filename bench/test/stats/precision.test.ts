// The precision statistics: the minimum detectable effect (stats/precision.ts) against hand
// computations and by simulation (at the MDE a real difference is found in about 80% of the
// runs), and the paired comparison over interleaved slices (stats/paired.ts): the exact
// signed-rank test against known values, the Hodges–Lehmann interval's critical values
// against the published table, a known shift recovered, its A/A false rate at the nominal
// level, and drift between pairs that an unpaired comparison cannot see past.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { uniformFloat64 } from 'pure-rand/distribution/uniformFloat64';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import {
  adjustFamily,
  compareGroups,
  comparePaired,
  declared,
  detectableLogShift,
  hodgesLehmann,
  pairedMde,
  signedRank,
  signedRankCritical,
  tQuantile,
  unpairedMde,
} from '../../src/stats/index.ts';

function normals(seed: number) {
  const rng = xoroshiro128plus(seed);
  const u = () => uniformFloat64(rng);
  return () => Math.sqrt(-2 * Math.log(1 - u())) * Math.cos(2 * Math.PI * u());
}

test('t quantiles: the table and the expansion beyond it', () => {
  assert.equal(tQuantile(0.975, 8), 2.306);
  assert.equal(tQuantile(0.8, 9), 0.883);
  // df 40: 2.021 and 0.851 in the tables; df 120: 1.980, 0.845.
  assert.ok(Math.abs(tQuantile(0.975, 40) - 2.021) < 0.002);
  assert.ok(Math.abs(tQuantile(0.8, 40) - 0.851) < 0.002);
  assert.ok(Math.abs(tQuantile(0.975, 120) - 1.98) < 0.002);
});

test('MDE: (t(.975) + t(.8)) · SE · √(π/3) on the log scale, by hand', () => {
  // df 8, SE 0.01: (2.306 + 0.889) · 0.01 · 1.02333 = 0.032695
  assert.ok(Math.abs(detectableLogShift(0.01, 8) - 0.032695) < 1e-5);
  // Paired: log ratios ln(1.01), ln(0.99), ln(1.03), ln(0.97) → d ≈ ±0.00995, ±0.030459; sd = 0.022728, SE = 0.011364, df 3.
  const a = [1.01, 0.99, 1.03, 0.97];
  const b = [1, 1, 1, 1];
  const d = a.map(Math.log);
  const m = d.reduce((s, x) => s + x, 0) / 4;
  const sd = Math.sqrt(d.reduce((s, x) => s + (x - m) ** 2, 0) / 3);
  const expected = Math.exp((3.182 + 0.978) * (sd / 2) * Math.sqrt(Math.PI / 3)) - 1;
  assert.ok(Math.abs(pairedMde(a, b)! - expected) < 1e-12);
  assert.ok(Math.abs(expected - 0.05651) < 0.0001, `${expected}`);
  // Unpaired: two groups whose logs have sd s each; the pooled SE is s·√(2/n).
  const s = 0.03;
  const g = (c: number) => [-1, 1, -1, 1, 0].map((k) => Math.exp(c + k * s * Math.sqrt(4 / 4))); // logs: c ± s, c; variance = 4s²/4 = s²
  const want = Math.exp((2.306 + 0.889) * s * Math.sqrt(2 / 5) * Math.sqrt(Math.PI / 3)) - 1;
  assert.ok(Math.abs(unpairedMde(g(0), g(0.2))! - want) < 1e-12, `${unpairedMde(g(0), g(0.2))} vs ${want}`);
  assert.equal(unpairedMde([1], [1, 2]), null);
  assert.equal(pairedMde([1, 2], [1, 2]), null);
});

test('signed-rank test: exact p-values of known cases', () => {
  // All 6 positive: one of 64 sign patterns on each side, p = 2/64.
  assert.equal(signedRank([1, 2, 3, 4, 5, 6]).p, 2 / 64);
  assert.equal(signedRank([1, 2, 3, 4, 5, 6]).direction, 1);
  assert.equal(signedRank([-1, -2, -3, -4, -5]).p, 2 / 32);
  // n = 10, T+ = 8 (ranks 1, 3, 4 positive): P(T ≤ 8) = 25/1024 two-sided 50/1024.
  const d = [0.1, -0.2, 0.3, 0.4, -0.5, -0.6, -0.7, -0.8, -0.9, -1.0];
  assert.equal(signedRank(d).u, 8);
  assert.ok(Math.abs(signedRank(d).p - 50 / 1024) < 1e-12, `${signedRank(d).p}`);
  assert.equal(signedRank([0, 0, 0]).p, 1);
});

test('signed-rank critical values: the published table (two-sided 5%)', () => {
  // Wilcoxon's table: n=6 → 0, 7 → 2, 8 → 3, 9 → 5, 10 → 8, 12 → 13, 15 → 25, 20 → 52.
  const table: Record<number, number> = { 5: -1, 6: 0, 7: 2, 8: 3, 9: 5, 10: 8, 12: 13, 15: 25, 20: 52 };
  for (const [n, c] of Object.entries(table)) assert.equal(signedRankCritical(Number(n)), c, `n=${n}`);
});

test('Hodges–Lehmann: a known shift is recovered, its interval covers it at about 95%', () => {
  const z = normals(7);
  let covered = 0;
  const trials = 2000;
  for (let t = 0; t < trials; t++) {
    const d = Array.from({ length: 12 }, () => 0.05 + 0.02 * z());
    const { ci } = hodgesLehmann(d);
    if (ci!.low <= 0.05 && 0.05 <= ci!.high) covered++;
  }
  assert.ok(covered / trials > 0.93 && covered / trials < 0.97, `coverage ${covered / trials}`);
  const { estimate } = hodgesLehmann([0.1, 0.2, 0.3]);
  assert.ok(Math.abs(estimate - 0.2) < 1e-12);
  assert.equal(hodgesLehmann([0.1, 0.2, 0.3]).ci, null);
});

test('comparePaired: a 5% shift under drift is declared; the unpaired test on the same data is not', () => {
  // 12 pairs; the machine's speed drifts ±15% from pair to pair, each slice has 1.5% noise; A is 5% faster.
  const z = normals(11);
  let paired = 0;
  let unpaired = 0;
  const trials = 300;
  for (let t = 0; t < trials; t++) {
    const drift = Array.from({ length: 12 }, () => 1000 * Math.exp(0.15 * z()));
    const a = drift.map((m) => m * 1.05 * Math.exp(0.015 * z()));
    const b = drift.map((m) => m * Math.exp(0.015 * z()));
    if (comparePaired(a, b, { higherIsBetter: true }).rawVerdict === 'faster') paired++;
    if (compareGroups(a, b, { key: `u${t}`, higherIsBetter: true, resamples: 200 }).rawVerdict === 'faster') unpaired++;
  }
  assert.ok(paired / trials > 0.9, `paired found it in ${paired}/${trials}`);
  assert.ok(unpaired / trials < 0.3, `unpaired found it in ${unpaired}/${trials}`);
  const c = comparePaired([110, 220, 330, 440, 550, 660], [100, 200, 300, 400, 500, 600], { higherIsBetter: true });
  assert.ok(Math.abs(c.ratio - 1.1) < 1e-9);
  assert.equal(c.rawVerdict, 'faster');
  assert.equal(c.test!.p, 2 / 64);
  assert.equal(c.pairs, 6);
});

test('comparePaired: A/A false differences at or below the nominal 5%, and none below 6 pairs', () => {
  const z = normals(13);
  for (const n of [5, 6, 10, 16]) {
    let falses = 0;
    const trials = 3000;
    for (let t = 0; t < trials; t++) {
      const drift = Array.from({ length: n }, () => 1000 * Math.exp(0.1 * z()));
      const a = drift.map((m) => m * Math.exp(0.02 * z()));
      const b = drift.map((m) => m * Math.exp(0.02 * z()));
      if (declared(comparePaired(a, b, { higherIsBetter: true }).rawVerdict)) falses++;
    }
    if (n < 6) assert.equal(falses, 0);
    assert.ok(falses / trials <= 0.06, `n=${n}: ${falses}/${trials}`);
  }
});

test('the MDE means what it says: a difference of the MDE is declared in about 80% of runs', () => {
  // Paired, 12 pairs, log-ratio sd 0.03: the MDE from the true sd; then simulate at that shift.
  const n = 12;
  const sd = 0.03;
  const mde = Math.exp(detectableLogShift(sd / Math.sqrt(n), n - 1)) - 1;
  const z = normals(17);
  let found = 0;
  const trials = 2000;
  for (let t = 0; t < trials; t++) {
    const a = Array.from({ length: n }, () => (1 + mde) * Math.exp(sd * z()));
    const b = Array.from({ length: n }, () => 1);
    if (comparePaired(a, b, { higherIsBetter: true }).rawVerdict === 'faster') found++;
  }
  assert.ok(found / trials > 0.7 && found / trials < 0.9, `power at the MDE ${(mde * 100).toFixed(2)}%: ${found / trials}`);
});

test('paired comparisons go through adjustFamily like the others', () => {
  const a = [110, 220, 330, 440, 550, 660, 770, 880, 990, 1100];
  const b = [100, 200, 300, 400, 500, 600, 700, 800, 900, 1000];
  const family = adjustFamily([
    comparePaired(a, b, { higherIsBetter: true }),
    comparePaired(
      b,
      b.map((x) => x * 1.0001),
      { higherIsBetter: true },
    ),
  ]);
  assert.equal(family[0]!.verdict, 'faster');
  assert.equal(family[0]!.familySize, 2);
  assert.ok(family[0]!.mde !== undefined);
});
