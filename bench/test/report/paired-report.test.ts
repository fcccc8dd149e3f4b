// The report's comparisons of two implementations of one run: over process pairs where the
// repetitions name several starts (bench/src/stats/process-pairs.ts), paired over the rounds from
// PAIRED_FROM slices on (stats/paired.ts), as groups below; each with its MDE, in the pair
// table's family with CPU per request; the comparisons CSV lists them with widths and MDEs.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { BenchResult } from '../../src/record/result-document.ts';
import { comparisonsCsv } from '../../src/report/comparisons-csv.ts';
import { comparisonMarkdown } from '../../src/report/comparison-summary.ts';
import { buildModel } from '../../src/report/model.ts';
import { PAIRED_FROM } from '../../src/stats/index.ts';
import { writeCalibrationFixtures } from '../fixtures/generate.ts';

function aaDocs(): BenchResult[] {
  const root = mkdtempSync(join(tmpdir(), 'paired-'));
  writeCalibrationFixtures(root);
  const dir = join(root, 'bench', 'forum', 'express');
  return readdirSync(dir).map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as BenchResult);
}

/** Each case's repetitions stretched to n rounds: the machine drifts ±20% from round to round, A and B alike; B is `shift` faster. */
function rounds(doc: BenchResult, n: number, shift: number): BenchResult {
  const b = doc.implementation.copy === 2;
  return {
    ...doc,
    cases: doc.cases.map((c) => ({
      ...c,
      repetitions: Array.from({ length: n }, (_, i) => {
        const r = c.repetitions[i % c.repetitions.length]!;
        const drift = 1 + 0.2 * Math.sin(i * 1.7);
        const noise = 1 + 0.004 * Math.cos(i * 2.3 + (b ? 1 : 0));
        const f = drift * noise * (b ? 1 + shift : 1);
        return {
          ...r,
          index: i + 1,
          throughput: 1000 * f,
          latencyMs: { ...r.latencyMs, p95: 20 / f },
          cpuPerRequestUs: { ...r.cpuPerRequestUs, server: (300 * drift * noise) / (b ? 1 + shift : 1) },
        };
      }),
    })),
  };
}

test(`same run, ${PAIRED_FROM} rounds: paired; a 3% difference under ±20% drift declared on throughput, p95 and CPU, with MDEs far below it`, () => {
  const docs = aaDocs().map((d) => rounds(d, PAIRED_FROM, 0.03));
  const [report] = buildModel(docs.map((doc) => ({ file: `${doc.runId}-${doc.implementation.copy}.json`, doc })));
  const pair = report!.pairs[0]!;
  assert.ok(pair.cases.length >= 3);
  for (const c of pair.cases) {
    for (const v of [c.throughput, c.p95, c.cpu!]) {
      assert.equal(v.paired, true);
      assert.equal(v.pairs, PAIRED_FROM);
      assert.ok(v.mde! < 0.03, `MDE ${v.mde}`);
    }
    // express (a) against express#2 (b, 3% faster and cheaper): a is slower on all three.
    assert.equal(c.throughput.verdict, 'slower');
    assert.equal(c.p95.verdict, 'slower');
    assert.equal(c.cpu!.verdict, 'slower');
    assert.ok(Math.abs(c.throughput.ratio - 1 / 1.03) < 0.005, `${c.throughput.ratio}`);
  }
  const md = comparisonMarkdown([report!]);
  assert.match(md, /interleaved slices: a difference is the Hodges–Lehmann estimate/);
  const csv = comparisonsCsv([report!]).trim().split('\n');
  assert.equal(csv.length, 1 + 3 * pair.cases.length);
  assert.match(csv[1]!, /,throughput,"paired slices: signed-rank/);
  assert.ok(csv[0]!.includes('ci_width_points,mde'));
});

test('the same drift without pairing (5 rounds): groups, the 3% lost in the drift, and the MDE says so', () => {
  const docs = aaDocs().map((d) => rounds(d, 5, 0.03));
  const [report] = buildModel(docs.map((doc) => ({ file: `${doc.runId}-${doc.implementation.copy}.json`, doc })));
  for (const c of report!.pairs[0]!.cases) {
    assert.equal(c.throughput.paired, undefined);
    assert.equal(c.throughput.verdict, 'no significant difference');
    assert.ok(c.throughput.mde! > 0.1, `MDE ${c.throughput.mde}`);
  }
});

/** Each case's rounds split over `starts` process pairs; B's processes are `offset` faster than A's in odd starts and slower in even ones. */
function processPairs(doc: BenchResult, starts: number, offset: number): BenchResult {
  const b = doc.implementation.copy === 2;
  return {
    ...doc,
    options: { ...doc.options, processPairs: starts },
    cases: doc.cases.map((c) => ({
      ...c,
      repetitions: c.repetitions.map((r, i) => {
        const k = Math.floor((i * starts) / c.repetitions.length) + 1;
        const f = b ? 1 + (k % 2 === 1 ? offset : -offset) : 1;
        return { ...r, process: k, throughput: r.throughput * f, latencyMs: { ...r.latencyMs, p95: r.latencyMs.p95 / f } };
      }),
    })),
  };
}

test('process pairs: one figure per start, Student’s t over them, the spread between starts reported beside the slices’', () => {
  // 30 rounds in 6 starts of 5; B's processes ±4% against A's, alternately: no difference overall, a large one within each start.
  const docs = aaDocs().map((d) => processPairs(rounds(d, 30, 0), 6, 0.04));
  const [report] = buildModel(docs.map((doc) => ({ file: `${doc.runId}-${doc.implementation.copy}.json`, doc })));
  const pair = report!.pairs[0]!;
  for (const c of pair.cases) {
    assert.equal(c.throughput.processPairs, 6);
    assert.equal(c.throughput.verdict, 'no significant difference');
    assert.ok(c.throughput.betweenSd! > 0.03 && c.throughput.withinSd! < 0.01, `between ${c.throughput.betweenSd}, within ${c.throughput.withinSd}`);
  }
  const md = comparisonMarkdown([report!]);
  assert.match(md, /started 6 times/);
  assert.match(md, /spread between process pairs \(sd of their log ratios\): throughput 4\.\d–4\.\d% \(slices alone: 0\.\d–0\.\d%\)/);
  assert.match(comparisonsCsv([report!]), /,throughput,"6 process pairs: t/);
  // Without `process` the same repetitions are read as one run's paired slices.
  const unmarked = docs.map((d) => ({ ...d, cases: d.cases.map((c) => ({ ...c, repetitions: c.repetitions.map(({ process: _, ...r }) => r) })) }));
  const [paired] = buildModel(unmarked.map((doc) => ({ file: `${doc.runId}-${doc.implementation.copy}.json`, doc })));
  assert.equal(paired!.pairs[0]!.cases[0]!.throughput.paired, true);
});
