// The compliance matrix: implementation × API → passed/total, from the verdict
// files on disk, printed and written as JSON and Markdown. Beside each API's conformance
// column stands its contract column (`<api> · pact`): the provider verifications of make pact,
// read from results/pact/<impl>/<api>.json, which share the verdict's status and counts.
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { resultsDir } from '@fairbench/harness/paths.ts';
import { readVerdicts, verdictDir, type Verdict } from './verdict.ts';

/** The fields of a verdict a matrix cell shows: conformance verdicts and contract verdicts both have them. */
export type CellVerdict = Pick<Verdict, 'implementation' | 'api' | 'status' | 'passed' | 'total' | 'reason' | 'recordedAt'>;

const pactVerdictDir = join(resultsDir, 'pact');
export const PACT_COLUMN = ' · pact';

export interface MatrixCell {
  readonly status: Verdict['status'];
  readonly passed: number;
  readonly total: number;
  readonly reason?: string;
  readonly recordedAt: string;
}
export type Matrix = Record<string, Record<string, MatrixCell>>;

export function buildMatrix(verdicts: readonly CellVerdict[], pactVerdicts: readonly CellVerdict[] = []): Matrix {
  const matrix: Matrix = {};
  const columns = [...verdicts.map((v) => ({ v, column: v.api })), ...pactVerdicts.map((v) => ({ v, column: `${v.api}${PACT_COLUMN}` }))];
  for (const { v, column } of columns) {
    (matrix[v.implementation] ??= {})[column] = {
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
  await mkdir(verdictDir, { recursive: true });
  await writeFile(json, `${JSON.stringify(matrix, null, 2)}\n`);
  await writeFile(markdown, `# Conformance: compliance matrix\n\n${matrixMarkdown(matrix)}`);
  return { json, markdown };
}

/** The contract verdicts of make pact (none before it ran). */
export async function readPactVerdicts(): Promise<CellVerdict[]> {
  const out: CellVerdict[] = [];
  const impls = await readdir(pactVerdictDir, { withFileTypes: true }).catch(() => []);
  for (const impl of impls.filter((e) => e.isDirectory() && e.name !== 'pacts').map((e) => e.name).sort()) {
    for (const file of (await readdir(join(pactVerdictDir, impl))).filter((f) => f.endsWith('.json')).sort()) {
      out.push(JSON.parse(await readFile(join(pactVerdictDir, impl, file), 'utf8')) as CellVerdict);
    }
  }
  return out;
}

/** Rebuilds the matrix from every verdict on disk (conformance and contract) and writes it. */
export async function writeCurrentMatrix(): Promise<{ json: string; markdown: string; text: string }> {
  const matrix = buildMatrix(await readVerdicts(), await readPactVerdicts());
  return { ...(await writeMatrix(matrix)), text: matrixMarkdown(matrix) };
}
