// The README's generated block: replaced whole between its markers, refused without them.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { repoRoot } from '@fairbench/harness/paths.ts';
import { buildMatrix, matrixMarkdown } from '../src/report/matrix.ts';
import { blockMarkers, replaceBlock } from '@fairbench/harness/readme-block.ts';

const { start, end } = blockMarkers('matrix');

test('the block between the markers is replaced, the rest kept byte for byte', () => {
  const text = `# t\n\nbefore\n${start}\nold | rows\n${end}\nafter\n`;
  assert.equal(replaceBlock(text, 'matrix', '| new |\n'), `# t\n\nbefore\n${start}\n| new |\n${end}\nafter\n`);
});

test('missing, reversed or repeated markers are an error, not a silent append', () => {
  assert.throws(() => replaceBlock('no markers', 'matrix', 'x'), /no single/);
  assert.throws(() => replaceBlock(`${end}\n${start}`, 'matrix', 'x'), /no single/);
  assert.throws(() => replaceBlock(`${start}${end}${start}${end}`, 'matrix', 'x'), /no single/);
});

test("the README has the matrix's block", async () => {
  const readme = await readFile(join(repoRoot, 'README.md'), 'utf8');
  assert.doesNotThrow(() => replaceBlock(readme, 'matrix', 'x'));
});

test('a pair whose implementation does not serve the API is one short mark in the matrix; another skip keeps its reason', () => {
  const cell = { implementation: 'x', api: 'a', status: 'skipped' as const, passed: 0, total: 0, recordedAt: '2026-01-01T00:00:00.000Z' };
  const text = matrixMarkdown(
    buildMatrix([
      { ...cell, reason: 'impl/x/impl.yaml does not list the a API (apis: b)' },
      { ...cell, api: 'b', reason: "no local image 'dotnet'" },
    ]),
  );
  assert.match(text, /\| x \| · not served \| ⏭ skipped: no local image 'dotnet' \|/);
});
