import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseId, parseLimit } from '../src/params.js';
import { hasPrototypeMember } from '../src/json-body.js';

test('ids: canonical decimals 1..2147483647 only', () => {
  for (const ok of ['1', '42', '2147483647']) assert.equal(parseId(ok), Number(ok));
  for (const bad of ['abc', '1.5', '0', '-1', '01', '2147483648', '1e3', '', ' 1', '+1', '0x1', '99999999999999999999']) {
    assert.equal(parseId(bad), null, bad);
  }
});

test('limits: canonical decimals 1..100 only; GraphQL Int numbers follow the same rule', () => {
  for (const ok of ['1', '50', '100', 1, 100]) assert.equal(parseLimit(ok), Number(ok));
  for (const bad of ['0', '101', '01', '1e3', 0, -1, 101, 1.5, NaN, undefined, null]) {
    assert.equal(parseLimit(bad), null, String(bad));
  }
});

test('hasPrototypeMember finds a __proto__ member at any depth, iteratively (issue 41)', () => {
  assert.equal(hasPrototypeMember(JSON.parse('{"__proto__":{"role":"owner"},"a":1}')), true);
  assert.equal(hasPrototypeMember(JSON.parse('{"a":[{"b":{"__proto__":1}}]}')), true);
  assert.equal(hasPrototypeMember({ a: { b: [1, 'x', null] }, proto: 1 }), false);
  assert.equal(hasPrototypeMember(JSON.parse(`${'['.repeat(100000)}${']'.repeat(100000)}`)), false);
  assert.equal(hasPrototypeMember(null), false);
});
