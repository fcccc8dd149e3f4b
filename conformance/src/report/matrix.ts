// The compliance matrix: implementation × API → passed/total, from the verdict
// files on disk, printed and written as JSON and Markdown. Beside each API's conformance
// column stands its contract column (`<api> · pact`): the provider verifications of make pact,
// read from results/pact/<impl>/<api>.json, which share the verdict's status and counts.
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { resultsDir } from '@fairbench/harness/paths.ts';
import { readVerdicts, verdictDir, type Verdict } from './verdict.ts';
import { resilienceCells } from '../resilience/verdict.ts';

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

/** The reason the runners give for a pair whose implementation does not serve the API (conformance/src/run.ts). */
const NOT_SERVED = /impl\.yaml does not list the \S+ API/;

function cellText(cell: MatrixCell | undefined): string {
  if (cell === undefined) return '—';
  switch (cell.status) {
    case 'passed':
      return `✅ ${cell.passed}/${cell.total}`;
    case 'failed':
      return `❌ ${cell.passed}/${cell.total}`;
    case 'skipped':
      // An API the implementation does not list is no gap: one short mark, not the long reason in every such cell.
      return NOT_SERVED.test(cell.reason ?? '') ? '· not served' : `⏭ skipped: ${cell.reason ?? ''}`;
    case 'error':
      return `💥 error: ${cell.reason?.split('\n')[0] ?? ''}`;
  }
}

/** make resilience's verdicts, by implementation and API: one more column per API that has any. */
export type ResilienceCells = Record<
  string,
  Record<string, { readonly status: string; readonly passed: number; readonly total: number; readonly short: boolean }>
>;

function resilienceText(cell: ResilienceCells[string][string] | undefined): string {
  if (cell === undefined) return '—';
  const mark = cell.status === 'passed' ? '✅' : cell.status === 'skipped' ? '⏭' : '❌';
  return `${mark} ${cell.passed}/${cell.total}${cell.short ? ' (short)' : ''}`;
}

export function matrixMarkdown(matrix: Matrix, resilience: ResilienceCells = {}): string {
  const apis = [...new Set([...Object.values(matrix), ...Object.values(resilience)].flatMap((row) => Object.keys(row)))].sort();
  const resilient = new Set(Object.values(resilience).flatMap((row) => Object.keys(row)));
  const columns = apis.flatMap((api) => (resilient.has(api) ? [api, `${api} resilience`] : [api]));
  const lines = [`| implementation | ${columns.join(' | ')} |`, `| --- | ${columns.map(() => '---').join(' | ')} |`];
  for (const impl of [...new Set([...Object.keys(matrix), ...Object.keys(resilience)])].sort()) {
    const cells = apis.flatMap((api) => [cellText(matrix[impl]?.[api]), ...(resilient.has(api) ? [resilienceText(resilience[impl]?.[api])] : [])]);
    lines.push(`| ${impl} | ${cells.map((c) => c.replaceAll('|', '\\|')).join(' | ')} |`);
  }
  return `${lines.join('\n')}\n`;
}

export async function writeMatrix(matrix: Matrix, resilience: ResilienceCells = {}): Promise<{ json: string; markdown: string }> {
  const json = join(verdictDir, 'matrix.json');
  const markdown = join(verdictDir, 'matrix.md');
  await mkdir(verdictDir, { recursive: true });
  await writeFile(json, `${JSON.stringify(matrix, null, 2)}\n`);
  await writeFile(markdown, `# Conformance: compliance matrix\n\n${matrixMarkdown(matrix, resilience)}`);
  return { json, markdown };
}

/** The contract verdicts of make pact (none before it ran). */
export async function readPactVerdicts(): Promise<CellVerdict[]> {
  const out: CellVerdict[] = [];
  const impls = await readdir(pactVerdictDir, { withFileTypes: true }).catch(() => []);
  for (const impl of impls
    .filter((e) => e.isDirectory() && e.name !== 'pacts')
    .map((e) => e.name)
    .sort()) {
    for (const file of (await readdir(join(pactVerdictDir, impl))).filter((f) => f.endsWith('.json')).sort()) {
      out.push(JSON.parse(await readFile(join(pactVerdictDir, impl, file), 'utf8')) as CellVerdict);
    }
  }
  return out;
}

/** Rebuilds the matrix from every verdict on disk (conformance, contract and resilience) and writes it. */
export async function writeCurrentMatrix(): Promise<{ json: string; markdown: string; text: string }> {
  const matrix = buildMatrix(await readVerdicts(), await readPactVerdicts());
  const resilience = await resilienceCells();
  return { ...(await writeMatrix(matrix, resilience)), text: matrixMarkdown(matrix, resilience) };
}
