// Runtime variants in the result documents and the report: express and express@bun of one
// run are two documents (results/bench/<api>/express@bun/…), each recording the runtime
// actually run, and two series of the report labelled impl@runtime; with the first
// repetition's latency timeline, the report's warm-up chart.
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { loadImplementation } from '@fairbench/harness/impl/manifest.ts';
import { asCopy, implCopies } from '../../src/record/copies.ts';
import { documentImplementation } from '../../src/record/document-impl.ts';
import { writeReport } from '../../src/report/index.ts';
import { resultErrors, resultFile, writeResult } from '../../src/record/result.ts';
import type { BenchResult, TimelinePoint } from '../../src/record/result-document.ts';
import { writeFixtures } from '../fixtures/generate.ts';

const facts = { runtimeVersion: '1.4.4', implTreeHash: `sha256:${'a'.repeat(64)}`, poolSize: 100 };

test('a variant’s document names it impl@variant and records the runtime run, not the default’s', async () => {
  const bun = documentImplementation(await loadImplementation('express@bun'), facts);
  assert.equal(bun.name, 'express@bun');
  assert.deepEqual(bun.variant, { name: 'bun', default: false });
  assert.deepEqual(bun.runtime, { name: 'bun', version: '1.4.4' });
  const node = documentImplementation(await loadImplementation('express'), { ...facts, runtimeVersion: 'v24.21.0' });
  assert.equal(node.name, 'express');
  assert.deepEqual(node.variant, { name: 'node', default: true });
  assert.deepEqual(node.runtime, { name: 'node', version: 'v24.21.0' });
  const jdk21 = documentImplementation(await loadImplementation('spring@jdk21'), { ...facts, runtimeVersion: 'openjdk version "21.0.8" 2025-07-15 LTS' });
  assert.deepEqual([jdk21.name, jdk21.runtime.name, jdk21.variant?.name], ['spring@jdk21', 'java', 'jdk21']);
});

test('an A/A run of a variant keeps the variant in every copy', async () => {
  const impl = await loadImplementation('express@bun');
  const [first, second] = implCopies(['express@bun', 'express@bun']).map((c) => documentImplementation(asCopy(impl, c), facts));
  assert.deepEqual([first?.name, first?.copy, second?.name, second?.copy], ['express@bun', 1, 'express@bun', 2]);
});

test('the variant’s document is valid, has its own file, and is its own series in the report', async () => {
  const root = await mkdtemp(join(tmpdir(), 'fairbench-variants-'));
  try {
    writeFixtures(root);
    const runId = '2026-11-20T09-00-00Z-quick'; // the smallest fixture run: the fewest charts to render
    const express = JSON.parse(await readFile(join(root, 'bench', 'forum', 'express', `${runId}.json`), 'utf8')) as BenchResult;
    // A slow first second on Bun (its JIT warming up), then steady.
    const timeline = (first: number): TimelinePoint[] => [first, 2, 2].map((p50, second) => ({ second, requests: 100, p50Ms: p50, p95Ms: p50 * 3 }));
    const withTimeline = (doc: BenchResult, first: number): BenchResult => ({
      ...doc,
      cases: doc.cases.map((c) => ({
        ...c,
        repetitions: c.repetitions.map((r) => (r.index === 1 && c.protocol !== 'database' ? { ...r, timeline: timeline(first) } : r)),
      })),
    });
    const bun: BenchResult = withTimeline(
      {
        ...express,
        implementation: documentImplementation(await loadImplementation('express@bun'), { ...facts, implTreeHash: express.implementation.implTreeHash }),
      },
      40,
    );
    assert.deepEqual(resultErrors(bun), []);
    assert.equal(resultFile(bun, join(root, 'bench')), join(root, 'bench', 'forum', 'express@bun', `${runId}.json`));
    await writeResult(bun, join(root, 'bench'));
    await writeResult(withTimeline(express, 3), join(root, 'bench'));
    const report = await writeReport(root, join(root, 'report', 'variants.html'), (r) => r.doc.runId === runId);
    const html = await readFile(report.file, 'utf8');
    assert.ok(html.includes('express@bun'), 'the variant is labelled impl@runtime');
    assert.ok(html.includes('bun 1.4.4'), 'with the runtime it ran on');
    assert.equal(report.runs, 2);
    const warmup = /<h4>Latency over the first seconds \(warm-up included\)<\/h4>\s*<figure class="timeline">(<svg[\s\S]*?<\/svg>)/.exec(html)?.[1] ?? '';
    assert.ok(warmup.includes('second since the load began'), 'the warm-up chart is drawn');
    assert.ok(warmup.includes('express@bun') && warmup.includes('p95'), 'a series per implementation and statistic');
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});
