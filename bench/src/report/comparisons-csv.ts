// The comparisons of a run of several implementations (or an A/A run) as CSV, one row per
// pair, case and quantity (throughput, p95, the implementation's CPU µs per request): the
// verdict with its p-values, the difference with its interval and the interval's width, and
// the comparison's precision, `mde` (the smallest difference it could have detected,
// stats/precision.ts). Written as results/bench/<api>/<runId>-comparisons.csv.
import { writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { csvField, ESTIMATE_COLUMNS, estimateFields } from './csv.ts';
import type { ApiReport, Verdicts } from './model.ts';

const HEADER = [
  'api',
  'a',
  'b',
  'case',
  'quantity',
  'method',
  'n_a',
  'n_b',
  'median_a',
  'median_b',
  ...ESTIMATE_COLUMNS,
  'p_adjusted',
  'family_size',
  'raw_verdict',
  'verdict',
] as const;

function row(api: string, a: string, b: string, caseId: string, quantity: string, c: Verdicts): (string | number | null)[] {
  return [
    api,
    a,
    b,
    caseId,
    quantity,
    c.processPairs !== undefined
      ? `${c.processPairs} process pairs: t, Hodges-Lehmann per pair`
      : c.paired
        ? 'paired slices: signed-rank, Hodges-Lehmann'
        : 'groups: Mann-Whitney, bootstrap',
    c.nA,
    c.nB,
    c.medianA,
    c.medianB,
    ...estimateFields(c),
    c.pAdjusted,
    c.familySize,
    c.rawVerdict,
    c.verdict,
  ];
}

export function comparisonsCsv(reports: readonly ApiReport[]): string {
  const rows: (string | number | null)[][] = [];
  for (const r of reports)
    for (const pair of r.pairs)
      for (const c of pair.cases) {
        rows.push(row(r.api, pair.a, pair.b, c.caseId, 'throughput', c.throughput));
        rows.push(row(r.api, pair.a, pair.b, c.caseId, 'p95', c.p95));
        if (c.cpu) rows.push(row(r.api, pair.a, pair.b, c.caseId, 'cpu_us_per_request', c.cpu));
      }
  return [HEADER.join(','), ...rows.map((x) => x.map(csvField).join(','))].join('\n') + '\n';
}

/** Writes <runId>-comparisons.csv in the API's results folder (beside the implementations' folders); returns its path. */
export async function writeComparisonsCsv(firstResultFile: string, runId: string, reports: readonly ApiReport[]): Promise<string> {
  const file = join(dirname(dirname(firstResultFile)), `${runId}-comparisons.csv`);
  await writeFile(file, comparisonsCsv(reports));
  return file;
}
