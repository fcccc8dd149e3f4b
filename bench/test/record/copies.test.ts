// An A/A calibration run's copies: labels, file names, the documents' fields, and what
// the runner keys by (a copy's label) against what it builds, gates and records (the implementation).
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { Implementation } from '@fairbench/harness/impl/manifest.ts';
import { asCopy, distinctOriginals, docLabel, documentName, implCopies, isCalibration, originalOf, resultFileName } from '../../src/record/copies.ts';
import type { BenchResult } from '../../src/record/result-document.ts';
import { resultErrors } from '../../src/record/result.ts';
import { writeCalibrationFixtures } from '../fixtures/generate.ts';

test('IMPL: different names are an ordinary run, one name twice an A/A run, a mixture is refused', () => {
  assert.deepEqual(implCopies(['express', 'hapi']), [
    { name: 'express', label: 'express', copy: null },
    { name: 'hapi', label: 'hapi', copy: null },
  ]);
  assert.deepEqual(implCopies(['express', 'express']), [
    { name: 'express', label: 'express', copy: 1 },
    { name: 'express', label: 'express#2', copy: 2 },
  ]);
  assert.deepEqual(
    implCopies(['hapi', 'hapi', 'hapi']).map((c) => c.label),
    ['hapi', 'hapi#2', 'hapi#3'],
  );
  assert.throws(() => implCopies(['express', 'express', 'hapi']), /A\/A calibration names one implementation only/);
});

test('the runner keys copies apart but gates, builds and records the implementation itself', () => {
  const impl = { manifest: { name: 'express', runtime: { name: 'node' } }, dir: '/impl/express' } as unknown as Implementation;
  const [one, two] = implCopies(['express', 'express']).map((c) => asCopy(impl, c));
  assert.equal(one!.manifest.name, 'express');
  assert.equal(two!.manifest.name, 'express#2');
  assert.equal(two!.dir, impl.dir);
  assert.equal(originalOf(two!), impl);
  assert.deepEqual(distinctOriginals([one!, two!]), [impl]);
  assert.deepEqual(documentName(one!), { name: 'express', copy: 1 });
  assert.deepEqual(documentName(two!), { name: 'express', copy: 2 });
  const plain = asCopy(impl, implCopies(['express'])[0]!);
  assert.equal(plain, impl);
  assert.deepEqual(documentName(plain), { name: 'express' });
});

test('an A/A document validates, is labelled by its copy and written as <runId>-copy<k>.json', () => {
  const root = mkdtempSync(join(tmpdir(), 'fairbench-copies-'));
  try {
    writeCalibrationFixtures(root);
    const dir = join(root, 'bench', 'forum', 'express');
    assert.deepEqual(readdirSync(dir).sort(), ['2026-11-22T08-00-00Z-copy1.json', '2026-11-22T08-00-00Z-copy2.json']);
    const docs = readdirSync(dir)
      .sort()
      .map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as BenchResult);
    for (const doc of docs) assert.deepEqual(resultErrors(doc), []);
    assert.deepEqual(docs.map(docLabel), ['express', 'express#2']);
    assert.deepEqual(docs.map(resultFileName), ['2026-11-22T08-00-00Z-copy1.json', '2026-11-22T08-00-00Z-copy2.json']);
    assert.ok(docs.every(isCalibration));
    const ordinary = { ...docs[0]!, implementation: { ...docs[0]!.implementation } };
    delete ordinary.implementation.copy;
    assert.equal(isCalibration(ordinary), false);
    assert.equal(resultFileName(ordinary), '2026-11-22T08-00-00Z.json');
    assert.ok(resultErrors({ ...ordinary, implementation: { ...ordinary.implementation, copy: 0 } }).length > 0, 'copies count from 1');
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
