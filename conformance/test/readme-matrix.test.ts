// make readme in a clone that ran only some pairs: the cells its verdicts renew are new, every
// other cell keeps the README's previous text, and the previous dates stay in the span.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { repoRoot } from '@fairbench/harness/paths.ts';
import { blockMarkers } from '@fairbench/harness/readme-block.ts';
import { buildMatrix, matrixMarkdown, type CellVerdict } from '../src/report/matrix.ts';
import { dateSpan, mergeMatrixTables, parseMatrixTable, statedDates, tableMarkdown } from '../src/report/readme-matrix.ts';

const verdict = (implementation: string, api: string, passed: number, total: number): CellVerdict => ({
  implementation,
  api,
  status: passed === total ? 'passed' : 'failed',
  passed,
  total,
  recordedAt: '2026-11-28T10:00:00Z',
});

const previous = `
| implementation | documents | forum | forum resilience | forum · pact |
| --- | --- | --- | --- | --- |
| aspnet | ✅ 96/96 | ✅ 128/128 | ✅ 5/5 (short) | ✅ 12/12 |
| express | ✅ 96/96 | ✅ 128/128 | ✅ 5/5 (short) | ✅ 12/12 |
| gone | ✅ 1/1 | — | — | — |

<sub>Verdicts recorded 2026-11-20 to 2026-11-26 on a 2-core machine; …</sub>
`;

test('a fresh clone that ran express on forum keeps every row and cell it could not renew', () => {
  const fresh = parseMatrixTable(matrixMarkdown(buildMatrix([verdict('express', 'forum', 129, 130)])));
  const { table, kept } = mergeMatrixTables(fresh, parseMatrixTable(previous), (impl) => impl !== 'gone');
  assert.equal(
    tableMarkdown(table),
    [
      '| implementation | documents | forum | forum resilience | forum · pact |',
      '| --- | --- | --- | --- | --- |',
      '| aspnet | ✅ 96/96 | ✅ 128/128 | ✅ 5/5 (short) | ✅ 12/12 |',
      '| express | ✅ 96/96 | ❌ 129/130 | ✅ 5/5 (short) | ✅ 12/12 |',
      '',
    ].join('\n'),
  );
  assert.deepEqual(kept, ['aspnet', 'express']);
});

test('a verdict of a new implementation or API adds its row and column; nothing is kept when every cell is renewed', () => {
  const fresh = parseMatrixTable(matrixMarkdown(buildMatrix([verdict('fastify', 'users', 107, 107)])));
  const { table } = mergeMatrixTables(fresh, parseMatrixTable(previous));
  assert.deepEqual(table.columns, ['documents', 'forum', 'forum resilience', 'forum · pact', 'users']);
  assert.equal(table.rows.get('fastify')?.get('users'), '✅ 107/107');
  assert.equal(table.rows.get('fastify')?.get('forum'), '—');
  assert.equal(table.rows.get('aspnet')?.get('users'), '—');
  const same = parseMatrixTable(previous);
  assert.deepEqual(mergeMatrixTables(same, parseMatrixTable('')).kept, []);
});

test("the README's own matrix reads back as it is written, escaped bars included", async () => {
  const readme = await readFile(join(repoRoot, 'README.md'), 'utf8');
  const { start, end } = blockMarkers('matrix');
  const block = readme.slice(readme.indexOf(start) + start.length, readme.indexOf(end));
  const table = block.split('\n\n')[0]!.trim();
  assert.equal(tableMarkdown(parseMatrixTable(block)).trim(), table);
  const escaped = '| implementation | forum |\n| --- | --- |\n| x | ⏭ skipped: a \\| b |\n';
  assert.equal(tableMarkdown(parseMatrixTable(escaped)), escaped);
});

test('the span takes in the previous block’s dates', () => {
  assert.deepEqual(statedDates(previous), ['2026-11-20', '2026-11-26']);
  assert.deepEqual(statedDates('Verdicts recorded 2026-11-26 on'), ['2026-11-26']);
  assert.equal(dateSpan(['2026-11-28', ...statedDates(previous)]), '2026-11-20 to 2026-11-28');
  assert.equal(dateSpan(['2026-11-28', '2026-11-28']), '2026-11-28');
  assert.equal(dateSpan([]), undefined);
});
