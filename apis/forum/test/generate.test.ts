import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fingerprintForum } from '../dataset/fingerprint.ts';
import { generateForum } from '../dataset/generate.ts';
import { CONFORMANCE_SCALE, PAPER_SCALE } from '../dataset/model.ts';

test("the paper scale has the paper's row counts and layout", () => {
  const data = generateForum(PAPER_SCALE);
  assert.equal(data.users.length, 1000);
  assert.equal(data.categories.length, 1000);
  assert.equal(data.threads.length, 1000);
  assert.equal(data.comments.length, 200_000);
  // Appendix C: one thread per category, authored by users counting down from 1000.
  assert.deepEqual([data.threads[0]!.user_id, data.threads[999]!.user_id], [1000, 1]);
  // Each user comments on threads 1..200, in order: comment_id = (user-1)*200 + thread.
  const c = data.comments[200 * 41 + 6]!;
  assert.deepEqual([c.comment_id, c.user_id, c.thread_id], [200 * 41 + 7, 42, 7]);
});

test('the same seed gives identical rows; another seed does not', () => {
  const a = generateForum(CONFORMANCE_SCALE);
  const b = generateForum(CONFORMANCE_SCALE);
  assert.deepEqual(a, b);
  assert.equal(fingerprintForum(a), fingerprintForum(b));
  assert.notEqual(fingerprintForum(generateForum({ ...CONFORMANCE_SCALE, seed: 2 })), fingerprintForum(a));
});

test('rows fit the schema: dates are calendar dates, strings fit varchar(255)', () => {
  const data = generateForum(CONFORMANCE_SCALE);
  for (const row of [...data.users, ...data.categories, ...data.threads, ...data.comments]) {
    for (const [column, value] of Object.entries(row)) {
      if (column.startsWith('date')) assert.match(String(value), /^\d{4}-\d{2}-\d{2}$/, column);
      else if (typeof value === 'string') assert.ok(value.length > 0 && value.length <= 255, column);
    }
  }
});

test('a scale whose comments would reference missing threads is refused', () => {
  assert.throws(() => generateForum({ seed: 1, entities: 10, commentsPerUser: 20 }), RangeError);
});
