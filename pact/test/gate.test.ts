// The gate's decision on a contract verdict: passed and current → reuse; a stale
// implementation or contract → rerun; none → rerun; failed → refuse, naming the failing
// interactions; errored → run once more, then refuse. And the compliance matrix shows the verdicts as a column per API.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildMatrix, matrixMarkdown } from '@fairbench/conformance/report/matrix.ts';
import { decidePact } from '../src/gate.ts';
import type { PactVerdict } from '../src/verdict.ts';

const a = `sha256:${'a'.repeat(64)}`;
const b = `sha256:${'b'.repeat(64)}`;
const current = { implTreeHash: a, contractHash: a };
const verdict = (fields: Partial<PactVerdict> = {}): PactVerdict => ({
  schemaVersion: 1,
  implementation: 'impl-x',
  api: 'api-y',
  status: 'passed',
  implTreeHash: a,
  contractHash: a,
  recordedAt: '2026-01-01T00:00:00.000Z',
  passed: 3,
  failed: 0,
  total: 3,
  failing: [],
  ...fields,
});

test('a passing verdict for the current implementation and contract is reused', () => {
  assert.equal(decidePact(verdict(), current).action, 'reuse');
});

test('no verdict, or a stale one, makes the verification run again, saying what changed', () => {
  assert.equal(decidePact(undefined, current).action, 'rerun');
  const impl = decidePact(verdict({ implTreeHash: b }), current);
  assert.equal(impl.action, 'rerun');
  assert.match(impl.action === 'rerun' ? impl.reason : '', /the implementation changed/);
  const contract = decidePact(verdict({ status: 'failed', contractHash: b }), current);
  assert.equal(contract.action, 'rerun');
  assert.match(contract.action === 'rerun' ? contract.reason : '', /the contract/);
});

test('a failing verdict is refused, naming the interactions; an erroring one after one more run', () => {
  const failed = decidePact(verdict({ status: 'failed', passed: 1, failed: 2, failing: ['getThing', 'putThing'] }), current);
  assert.equal(failed.action, 'refuse');
  assert.match(failed.action === 'refuse' ? failed.reason : '', /2 of 3 interactions failed: getThing; putThing.*make pact IMPL=impl-x API=api-y/);
  const errored = verdict({ status: 'error', reason: 'build failed\nmore' });
  assert.equal(decidePact(errored, current).action, 'rerun');
  assert.equal(decidePact(errored, current, true).action, 'refuse');
});

test("the matrix shows each API's contract verdicts as a column beside its conformance column", () => {
  const cell = { implementation: 'impl-x', api: 'api-y', status: 'passed' as const, passed: 5, total: 5, recordedAt: '2026-01-01T00:00:00.000Z' };
  const matrix = buildMatrix([cell], [{ ...cell, status: 'failed', passed: 2, total: 3 }]);
  assert.deepEqual(Object.keys(matrix['impl-x']!).sort(), ['api-y', 'api-y · pact']);
  const text = matrixMarkdown(matrix);
  assert.match(text, /\| implementation \| api-y \| api-y · pact \|/);
  assert.match(text, /\| impl-x \| ✅ 5\/5 \| ❌ 2\/3 \|/);
});
