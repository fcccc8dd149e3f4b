// The failures the runner records from what a load measured.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { emptyWindow } from '../../src/load/failure.ts';
import type { Measured } from '../../src/load/k6.ts';

// What k6's summary gives a window in which nothing ended: zero requests and zero latencies.
const zeros = { min: 0, mean: 0, median: 0, p90: 0, p95: 0, p99: 0, max: 0 };
const measured = (requests: number): Measured => ({
  window: { from: 0, to: 2_000 },
  durationSeconds: 2,
  requests,
  errors: {},
  throughput: requests / 2,
  latencyMs: zeros,
  notes: [],
});

test('a window in which no request ended is a failure of its own, never a p95 of 0 ms', () => {
  const f = emptyWindow(measured(0));
  assert.equal(f?.kind, 'empty-window');
  assert.match(f!.reason, /2-s measured window/);
  assert.match(f!.reason, /DURATION/);
});

test('one request ended: measured, whatever its latency', () => {
  assert.equal(emptyWindow(measured(1)), undefined);
});
