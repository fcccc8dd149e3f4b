// Randomized interleaved trials (src/plan/interleave.ts): reproducible, balanced for two
// implementations (each block of two rounds has both orders), random beyond that.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { interleavedOrder } from '../../src/plan/interleave.ts';
import { sliceOrder } from '../../src/calibration/ab.ts';

test('two implementations: every block of two rounds holds A B and B A once; the blocks differ from run to run', () => {
  const orders = (key: string) => Array.from({ length: 12 }, (_, i) => interleavedOrder(['a', 'b'], i + 1, key).join(''));
  for (const key of ['run1|case', 'run2|case', 'run1|other']) {
    const o = orders(key);
    for (let b = 0; b < 6; b++) assert.deepEqual(new Set([o[2 * b], o[2 * b + 1]]), new Set(['ab', 'ba']), `${key} block ${b}: ${o}`);
    assert.deepEqual(orders(key), o, 'reproducible');
  }
  // Not the fixed alternation everywhere: some block starts with B A.
  const starts = ['run1|case', 'run2|case', 'run1|other', 'run3|x'].flatMap((k) => orders(k).filter((_, i) => i % 2 === 0));
  assert.ok(starts.includes('ab') && starts.includes('ba'), starts.join(' '));
  // Within one case too: the blocks of a case are not all alike (run 2026-11-26T04-33-03Z's were).
  for (const key of ['2026-11-26T04-33-03Z|rest/closed/c100-r1-j0', '2026-11-26T04-33-03Z|rest/closed/c100-r100-j0']) {
    const first = orders(key).filter((_, i) => i % 2 === 0);
    assert.ok(new Set(first).size === 2, `${key}: ${first.join(' ')}`);
  }
});

test('three implementations: a permutation each round, every one first sometimes', () => {
  const firsts = new Set<string>();
  for (let r = 1; r <= 30; r++) {
    const o = interleavedOrder(['a', 'b', 'c'], r, 'k');
    assert.deepEqual([...o].sort(), ['a', 'b', 'c']);
    firsts.add(o[0]!);
  }
  assert.equal(firsts.size, 3);
});

test('the calibration slices: balanced pairs in blocks of two', () => {
  const order = sliceOrder(12, 'x');
  assert.equal(order.length, 24);
  for (let p = 0; p < 12; p += 2) assert.deepEqual(new Set([order.slice(2 * p, 2 * p + 2), order.slice(2 * p + 2, 2 * p + 4)]), new Set(['AB', 'BA']));
  assert.equal(sliceOrder(12, 'x'), order);
});
