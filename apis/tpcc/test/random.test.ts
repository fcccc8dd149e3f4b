// TPC-C's random functions (clause 2.1.6): NURand's formula and spread, the run-time C rule,
// determinism of the generator the loader and the benchmark's client share.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { NURAND_A, TpccRandom, validRunC } from '../dataset/random.js';

test('NURand(A, x, y) = (((random(0, A) | random(x, y)) + C) % (y - x + 1)) + x, drawn in that order', () => {
  for (const [A, x, y, C] of [
    [255, 0, 999, 123],
    [1023, 1, 3000, 7],
    [8191, 1, 100_000, 4000],
    [255, 0, 9, 200],
  ] as const) {
    const a = new TpccRandom(42);
    const b = new TpccRandom(42);
    for (let i = 0; i < 5000; i++) {
      const expected = (((b.int(0, A) | b.int(x, y)) + C) % (y - x + 1)) + x;
      assert.equal(a.nurand(A, x, y, C), expected);
    }
  }
});

test('NURand stays in x..y and is skewed: some values are drawn far more often than under a uniform draw', () => {
  const r = new TpccRandom(3);
  const counts = new Array<number>(3001).fill(0);
  for (let i = 0; i < 300_000; i++) {
    const v = r.nurand(NURAND_A.customerId, 1, 3000, 259);
    assert.ok(v >= 1 && v <= 3000);
    counts[v]! += 1;
  }
  // Uniform: about 100 each. NURand(1023, 1, 3000): the most frequent ids get several times that.
  assert.ok(Math.max(...counts) > 300, `max ${Math.max(...counts)}`);
});

test('int(lo, hi) covers both ends and nothing outside; the same seed repeats the stream', () => {
  const r = new TpccRandom(9);
  const seen = new Set<number>();
  for (let i = 0; i < 10_000; i++) {
    const v = r.int(1, 10);
    assert.ok(v >= 1 && v <= 10);
    seen.add(v);
  }
  assert.equal(seen.size, 10);
  const a = new TpccRandom(5);
  const b = new TpccRandom(5);
  assert.deepEqual(
    Array.from({ length: 100 }, () => a.uint32()),
    Array.from({ length: 100 }, () => b.uint32()),
  );
  assert.notDeepEqual(
    Array.from({ length: 5 }, () => new TpccRandom(6).uint32()),
    Array.from({ length: 5 }, () => new TpccRandom(5).uint32()),
  );
});

test('C_RUN for C_LAST differs from C_LOAD by 65..119, never 96 or 112 (clause 2.1.6.1)', () => {
  assert.equal(validRunC(100, 165), true);
  assert.equal(validRunC(200, 81), true);
  assert.equal(validRunC(100, 196), false);
  assert.equal(validRunC(100, 212), false);
  assert.equal(validRunC(100, 164), false);
  assert.equal(validRunC(100, 220), false);
});
