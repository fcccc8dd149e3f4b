// Every case of one result document as CSV, written beside the JSON (<runId>.csv): one row per
// case with the numbers the summary prints — medians with their 95% intervals, the share of
// the limit (with its tier) and the verdict against it — for a spreadsheet or a plotting script.
import { writeFile } from 'node:fs/promises';
import { docLabel } from '../record/copies.ts';
import { tierOf, type BenchResult } from '../record/result-document.ts';
import { limitFor } from '../record/limit.ts';
import type { MedianEstimate } from '../stats/index.ts';
import { limitVerdicts } from './limit-verdicts.ts';
import { summarizeCase } from './model.ts';

const HEADER = [
  'api',
  'implementation',
  'run_id',
  'profile',
  'case',
  'protocol',
  'tier',
  'model',
  'parameters',
  'repetitions',
  'invalid_repetitions',
  'throughput_median',
  'throughput_ci_low',
  'throughput_ci_high',
  'p95_ms_median',
  'p95_ms_ci_low',
  'p95_ms_ci_high',
  'latency_median_ms',
  'latency_p99_ms',
  'errors',
  'dropped_iterations',
  'generator_bound_repetitions',
  'limit_tier',
  'share_of_limit',
  'share_ci_low',
  'share_ci_high',
  'vs_limit_throughput',
  'vs_limit_p_adjusted',
  'vs_limit_throughput_mde',
  'server_cpu_us_per_request',
  'database_cpu_us_per_request',
  'client_cpu_us_per_request',
  'client_cpu_percent_mean',
  'server_cpu_percent_peak',
  'server_rss_bytes_peak',
  'work_checked_repetitions',
  'work_not_checkable_repetitions',
  'failure',
] as const;

/** A CSV field: quoted when it holds a comma, a quote or a line break (RFC 4180). */
export function csvField(v: string | number | null | undefined): string {
  if (v === null || v === undefined) return '';
  const s = typeof v === 'number' ? (Number.isFinite(v) ? String(Number(v.toPrecision(6))) : '') : v;
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** The column names of estimateFields, in its order. */
export const ESTIMATE_COLUMNS = ['difference', 'ci_low', 'ci_high', 'ci_width_points', 'mde', 'p'] as const;

/**
 * A comparison's estimate as CSV fields: the difference (ratio − 1), its 95% interval, the
 * interval's width in points, the smallest detectable difference and the raw p (the
 * comparisons CSV and the calibration's write the same columns).
 */
export function estimateFields(c: {
  readonly ratio: number;
  readonly ci: { readonly low: number; readonly high: number } | null;
  readonly mde?: number | null | undefined;
  readonly test?: { readonly p: number } | null | undefined;
}): (number | null)[] {
  return [c.ratio - 1, c.ci ? c.ci.low - 1 : null, c.ci ? c.ci.high - 1 : null, c.ci ? (c.ci.high - c.ci.low) * 100 : null, c.mde ?? null, c.test?.p ?? null];
}

export function casesCsv(doc: BenchResult): string {
  const label = docLabel(doc);
  const verdicts = new Map(limitVerdicts(doc).cases.map((v) => [v.caseId, v]));
  const est = (e: MedianEstimate | null | undefined) => [e?.median ?? null, e?.ci?.low ?? null, e?.ci?.high ?? null];
  const rows = doc.cases.map((c) => {
    const params = Object.entries(c.parameters)
      .map(([k, v]) => `${k}=${v}`)
      .join(';');
    const head = [
      doc.api,
      label,
      doc.runId,
      doc.options.profile ?? null,
      c.id,
      c.protocol,
      tierOf(c),
      c.model,
      params,
      c.repetitions.length,
      c.invalidRepetitions?.length ?? 0,
    ];
    const failure = c.failure ? `${c.failure.kind}: ${c.failure.reason}` : null;
    if (c.repetitions.length === 0) return [...head, ...Array<null>(HEADER.length - head.length - 1).fill(null), failure];
    const r = summarizeCase(doc.api, label, doc, c);
    const v = verdicts.get(c.id);
    return [
      ...head,
      ...est(r.throughput),
      ...est(r.latencyP95),
      r.latency.median,
      r.latency.p99,
      r.errorCount,
      r.dropped,
      r.generatorBound,
      r.baseline?.tier ?? (limitFor(doc, c) === c ? tierOf(c) : null),
      ...(r.baseline
        ? [r.baseline.ratio.ratio, r.baseline.ratio.ci?.low ?? null, r.baseline.ratio.ci?.high ?? null]
        : limitFor(doc, c) === c
          ? [1, null, null]
          : [null, null, null]),
      v?.throughput.verdict ?? null,
      v?.throughput.pAdjusted ?? null,
      v?.throughput.mde ?? null,
      r.cpuPerRequest.server?.median ?? null,
      r.cpuPerRequest.database?.median ?? null,
      r.cpuPerRequest.generator?.median ?? null,
      r.generator?.cpuMean ?? null,
      r.server?.cpuPeak ?? null,
      r.server?.rssPeak ?? null,
      r.work.unrecorded === r.n ? null : r.work.checked,
      r.work.unrecorded === r.n ? null : r.work.notCheckable,
      failure,
    ];
  });
  return [HEADER.join(','), ...rows.map((row) => row.map(csvField).join(','))].join('\n') + '\n';
}

/** Writes <runId>.csv beside the result's JSON and returns its path. */
export async function writeCasesCsv(jsonFile: string, doc: BenchResult): Promise<string> {
  const file = jsonFile.replace(/\.json$/, '.csv');
  await writeFile(file, casesCsv(doc));
  return file;
}
