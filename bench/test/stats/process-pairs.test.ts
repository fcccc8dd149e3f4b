// Comparisons over process pairs (stats/process-pairs.ts): by hand on a small case, and by
// simulation of the failure it exists for — two processes of one program that differ for
// their whole life. Paired slices of one process pair then declare false differences far
// above 5%; the process pairs' t-test keeps its level, and still finds a real difference.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { uniformFloat64 } from 'pure-rand/distribution/uniformFloat64';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import { comparePaired, compareProcessPairs, declared, type ProcessPairSlices } from '../../src/stats/index.ts';

function normals(seed: number) {
  const rng = xoroshiro128plus(seed);
  const u = () => uniformFloat64(rng);
  return () => Math.sqrt(-2 * Math.log(1 - u())) * Math.cos(2 * Math.PI * u());
}

/** K process pairs of m slices: each process a lifelong offset (sd `processSd`), each slice noise (sd `sliceSd`), B `shift` faster. */
function simulate(normal: () => number, k: number, m: number, processSd: number, sliceSd: number, shift = 0): ProcessPairSlices[] {
  return Array.from({ length: k }, () => {
    const pa = processSd * normal();
    const pb = processSd * normal();
    const drift = Array.from({ length: m }, () => 0.2 * normal());
    return {
      a: drift.map((x) => 1000 * Math.exp(x + pa + sliceSd * normal())),
      b: drift.map((x) => 1000 * Math.exp(x + pb + shift + sliceSd * normal())),
    };
  });
}

test('process pairs: the mean of each pair’s Hodges–Lehmann log ratio, its t interval and test, by hand', () => {
  // Log ratios per process pair: 0.1 in all slices of pair 1, 0.2 in pair 2, 0.3 in pair 3.
  const pair = (d: number): ProcessPairSlices => ({ a: [100 * Math.exp(d), 200 * Math.exp(d)], b: [100, 200] });
  const c = compareProcessPairs([pair(0.1), pair(0.2), pair(0.3)], { higherIsBetter: true });
  assert.equal(c.processPairs, 3);
  assert.ok(Math.abs(c.ratio - Math.exp(0.2)) < 1e-12);
  assert.ok(Math.abs(c.betweenSd - 0.1) < 1e-12);
  assert.equal(c.withinSd, 0); // every slice of a pair has the same log ratio
  // t = 0.2 / (0.1/√3) = 3.464 on 2 df: two-sided p 0.0742; half-width t(.975; 2) · SE = 4.303 · 0.0577.
  assert.ok(Math.abs(c.test!.p - 0.0742) < 0.0005, `p ${c.test!.p}`);
  assert.ok(Math.abs(Math.log(c.ci!.high) - (0.2 + 4.3027 * (0.1 / Math.sqrt(3)))) < 1e-3);
  assert.equal(c.rawVerdict, 'no significant difference');
  assert.equal(compareProcessPairs([pair(0.1), pair(0.2)], { higherIsBetter: true }).rawVerdict, 'descriptive');
  assert.throws(() => compareProcessPairs([{ a: [1, 2], b: [1] }], { higherIsBetter: true }), /2 against 1 slices/);
});

test('A/A with lifelong process differences: one process pair’s slices declare them, process pairs keep the level', () => {
  const normal = normals(55);
  const runs = 400;
  let falseSlices = 0;
  let falseProcesses = 0;
  let widerBetween = 0;
  for (let r = 0; r < runs; r++) {
    // A process's offset 3% (as the calibration's A/A pairs of processes differed), a slice's 10%:
    // 30 slices of one process pair (the standard profile before process pairs), then 5 process pairs of 12.
    const [only] = simulate(normal, 1, 30, 0.03, 0.1);
    const one = comparePaired(only!.a, only!.b, { higherIsBetter: true });
    const pairs = simulate(normal, 5, 12, 0.03, 0.1);
    if (declared(one.rawVerdict)) falseSlices++;
    const c = compareProcessPairs(pairs, { higherIsBetter: true });
    if (declared(c.rawVerdict)) falseProcesses++;
    if (c.betweenSd > c.withinSd!) widerBetween++;
  }
  assert.ok(falseSlices / runs > 0.15, `one process pair's slices: ${falseSlices} of ${runs} false`);
  assert.ok(falseProcesses / runs <= 0.07, `process pairs: ${falseProcesses} of ${runs} false`);
  assert.ok(widerBetween / runs > 0.6, `the between spread exceeds the within one in ${widerBetween} of ${runs}`);
});

test('process pairs find a real 10% difference and its direction', () => {
  const normal = normals(56);
  let found = 0;
  for (let r = 0; r < 200; r++) {
    const c = compareProcessPairs(simulate(normal, 5, 12, 0.01, 0.1, Math.log(1.1)), { higherIsBetter: true });
    if (c.rawVerdict === 'slower') found++;
    assert.notEqual(c.rawVerdict, 'faster');
  }
  assert.ok(found / 200 > 0.8, `found ${found} of 200`);
});
