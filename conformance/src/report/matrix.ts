// The compliance matrix: implementation × API → passed/total, from the verdict
// files on disk, printed and written as JSON and Markdown.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { verdictDir, type Verdict } from './verdict.ts';

export interface MatrixCell {
  readonly status: Verdict['status'];
  readonly passed: number;
  readonly total: number;
  readonly reason?: string;
  readonly recordedAt: string;
}
export type Matrix = Record<string, Record<string, MatrixCell>>;

export function buildMatrix(verdicts: readonly Verdict[]): Matrix {
  const matrix: Matrix = {};
  for (const v of verdicts) {
    (matrix[v.implementation] ??= {})[v.api] = {
      status: v.status,
      passed: v.passed,
      total: v.total,
      ...(v.reason !== undefined ? { reason: v.reason } : {}),
      recordedAt: v.recordedAt,
    };
  }
  return matrix;
}

function cellText(cell: MatrixCell | undefined): string {
  if (cell === undefined) return '—';
  switch (cell.status) {
    case 'passed':
      return `✅ ${cell.passed}/${cell.total}`;
    case 'failed':
      return `❌ ${cell.passed}/${cell.total}`;
    case 'skipped':
      return `⏭ skipped: ${cell.reason ?? ''}`;
    case 'error':
      return `💥 error: ${cell.reason?.split('\n')[0] ?? ''}`;
  }
}

export function matrixMarkdown(matrix: Matrix): string {
  const apis = [...new Set(Object.values(matrix).flatMap((row) => Object.keys(row)))].sort();
  const lines = [`| implementation | ${apis.join(' | ')} |`, `| --- | ${apis.map(() => '---').join(' | ')} |`];
  for (const impl of Object.keys(matrix).sort()) {
    lines.push(`| ${impl} | ${apis.map((api) => cellText(matrix[impl]?.[api]).replaceAll('|', '\\|')).join(' | ')} |`);
  }
  return `${lines.join('\n')}\n`;
}

export async function writeMatrix(matrix: Matrix): Promise<{ json: string; markdown: string }> {
  const json = join(verdictDir, 'matrix.json');
  const markdown = join(verdictDir, 'matrix.md');
  await writeFile(json, `${JSON.stringify(matrix, null, 2)}\n`);
  await writeFile(markdown, `# Conformance: compliance matrix\n\n${matrixMarkdown(matrix)}`);
  return { json, markdown };
}
