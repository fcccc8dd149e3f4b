import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { buildSchema, parse, printSchema, specifiedRules, validate } from 'graphql';
import { schema } from '../src/graphql/schema.js';
import { limitRules } from '../src/graphql/limits.js';

const errorsOf = (query) => validate(schema, parse(query), [...specifiedRules, ...limitRules]).map((e) => e.message);

// Introspection chain whose deepest path has exactly `depth` fields.
function introspection(depth) {
  const fields = ['__schema', 'types', 'fields', 'type', ...Array(depth - 5).fill('ofType')];
  return `{ ${fields.join(' { ')} { name ${'} '.repeat(fields.length)}}`;
}

test('depth: root fields are depth 1, so { commentById { body } } is 2', () => {
  assert.deepEqual(errorsOf('{ commentById(id: 1) { body } }'), []);
});

test('depth 15 is accepted and 16 rejected, introspection included', () => {
  assert.deepEqual(errorsOf(introspection(15)), []);
  assert.deepEqual(errorsOf(introspection(16)), ['The operation has depth 16; the maximum depth is 15.']);
});

test('fragments are expanded and add no depth themselves', () => {
  const viaFragments = (depth) =>
    `{ __schema { ...S } } fragment S on __Schema { types { fields { type { ${'ofType { '.repeat(depth - 5)}...L ${'} '.repeat(depth - 5)}} } } }` +
    ' fragment L on __Type { ... on __Type { name } }';
  assert.deepEqual(errorsOf(viaFragments(15)), []);
  assert.deepEqual(errorsOf(viaFragments(16)), ['The operation has depth 16; the maximum depth is 15.']);
});

test('root fields: 10 accepted, 11 rejected; aliases and fragment fields count', () => {
  const aliased = (n) => `{ ${Array.from({ length: n }, (_, i) => `a${i}: commentById(id: 1) { body }`).join(' ')} }`;
  assert.deepEqual(errorsOf(aliased(10)), []);
  assert.deepEqual(errorsOf(aliased(11)), ['The operation selects 11 root fields; at most 10 are allowed.']);
  const viaFragment = `query Q { ...F ... on Query { x: __typename } } fragment F on Query { ${Array.from({ length: 10 }, (_, i) => `t${i}: __typename`).join(' ')} }`;
  assert.deepEqual(errorsOf(viaFragment), ['Operation "Q" selects 11 root fields; at most 10 are allowed.']);
});

test('fragment cycles and unknown fragments are left to graphql (no crash, no hang)', () => {
  assert.equal(errorsOf('{ commentById(id: 1) { ...F } } fragment F on Comment { ...G } fragment G on Comment { ...F }').length, 1);
  assert.deepEqual(errorsOf('{ commentById(id: 1) { ...Nope } }'), ['Unknown fragment "Nope".']);
});

test('fragment doubling is memoised (2^60 root fields counted instantly)', () => {
  const doc = `{ ...F0 } ${Array.from({ length: 60 }, (_, i) => `fragment F${i} on Query { ...F${i + 1} ...F${i + 1} }`).join(' ')} fragment F60 on Query { __typename }`;
  const messages = errorsOf(doc);
  assert.match(messages[0], /selects \d+ root fields/);
});

// In the fairbench repo, the SDL written in src/graphql/schema.js must be the
// shared spec's type system (skipped when the implementation is used alone).
const specSchema = new URL('../../../spec/schema.graphql', import.meta.url);
test('the served schema prints exactly like spec/schema.graphql', { skip: !existsSync(specSchema) && 'no spec/schema.graphql next to this implementation' }, () => {
  assert.equal(printSchema(schema), printSchema(buildSchema(readFileSync(specSchema, 'utf8'))));
});
