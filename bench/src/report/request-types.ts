// Per request type (the operations a users flow or a documents case mixes): what the
// papers reported — the mean time per request type — plus the median, p95, p99,
// throughput and the server's own time (Server-Timing), each the median over the
// repetitions of that repetition's figure; per pair of implementations the ratio of
// those medians with its bootstrap interval and a verdict (the pair's mean and median
// comparisons over every row are one family).
import {
  adjustFamily,
  bootstrapMedian,
  compareGroups,
  countDeclared,
  mean,
  median,
  type Adjusted,
  type ComparisonEstimate,
  type MedianEstimate,
} from '../stats/index.ts';
import { BASELINE_PROTOCOL, type BenchCase, type BenchResult } from '../record/result-document.ts';
import { limitFor } from '../record/limit.ts';

export interface TypeResult {
  impl: string;
  type: string;
  n: number;
  /** Median over the repetitions of each repetition's mean (with its interval). */
  mean: MedianEstimate;
  /** The mean of the repetitions' means: the paper's figure (it averaged ten executions). */
  meanOfMeans: number;
  /** The spread of the repetitions' means: their standard deviation (0 with one repetition). */
  meanSd: number;
  /** Each request's latency SD (the papers' Bombardier "Stdev"): the median over the repetitions; null where the results lack it. */
  requestSd: number | null;
  median: MedianEstimate;
  p95: number;
  p99: number;
  throughput: number;
  requests: number;
  errors: number;
  /** Server-Timing: the median over repetitions of the mean server time; null without the header. */
  serverMean: number | null;
  /** Baseline parts (bcrypt, database): the median over repetitions of each part's mean. */
  parts: Record<string, number>;
}

export interface TypeRow {
  caseId: string;
  protocol: string;
  model: string;
  parameters: BenchCase['parameters'];
  type: string;
  results: TypeResult[];
  /** The same point's database-alone figure for this request type (the first implementation's run). */
  baseline: TypeResult | null;
  comparisons: TypeComparison[];
}

export interface TypeComparison {
  a: string;
  b: string;
  /** Ratio of the medians of the repetitions' means, a/b; lower is faster. */
  mean: ComparisonEstimate & Adjusted;
  median: ComparisonEstimate & Adjusted;
}

export interface CaseSource {
  impl: string;
  run: BenchResult;
  case: BenchCase;
}

function sd(values: readonly number[]): number {
  if (values.length < 2) return 0;
  const m = mean(values);
  return Math.sqrt(values.reduce((a, v) => a + (v - m) ** 2, 0) / (values.length - 1));
}

export function summarizeType(api: string, src: CaseSource, type: string): TypeResult | null {
  const reps = src.case.repetitions.filter((r) => r.requestTypes?.[type]);
  if (reps.length === 0) return null;
  const t = reps.map((r) => r.requestTypes![type]!);
  const key = (what: string) => `${api}|${src.case.id}|${type}|${src.impl}|${src.run.runId}|${what}`;
  const means = t.map((x) => x.latencyMs.mean);
  const servers = t.flatMap((x) => (x.serverMs ? [x.serverMs.mean] : []));
  const partNames = [...new Set(t.flatMap((x) => Object.keys(x.partsMs ?? {})))];
  return {
    impl: src.impl,
    type,
    n: reps.length,
    mean: bootstrapMedian(means, { key: key('mean') }),
    meanOfMeans: mean(means),
    meanSd: sd(means),
    requestSd: t.some((x) => x.latencyMs.sd !== undefined) ? median(t.flatMap((x) => (x.latencyMs.sd === undefined ? [] : [x.latencyMs.sd]))) : null,
    median: bootstrapMedian(
      t.map((x) => x.latencyMs.median),
      { key: key('median') },
    ),
    p95: median(t.map((x) => x.latencyMs.p95)),
    p99: median(t.map((x) => x.latencyMs.p99)),
    throughput: median(t.map((x) => x.throughput ?? 0)),
    requests: t.reduce((a, x) => a + x.requests, 0),
    errors: t.reduce((a, x) => a + x.errors, 0),
    serverMean: servers.length ? median(servers) : null,
    parts: Object.fromEntries(partNames.map((p) => [p, median(t.flatMap((x) => (x.partsMs?.[p] ? [x.partsMs[p].mean] : [])))])),
  };
}

/** Type order: as first seen in the case's repetitions (the flow's order). */
function typesOf(cases: readonly BenchCase[]): string[] {
  const seen: string[] = [];
  for (const c of cases) for (const r of c.repetitions) for (const t of Object.keys(r.requestTypes ?? {})) if (!seen.includes(t)) seen.push(t);
  return seen;
}

/**
 * One row per case and request type, implementations side by side (in `impls` order),
 * for the chosen case sources (non-baseline cases: each implementation's chosen run).
 */
export function requestTypeRows(api: string, impls: readonly string[], sources: readonly CaseSource[]): TypeRow[] {
  const ids = [...new Set(sources.map((s) => s.case.id))];
  const rows: TypeRow[] = [];
  // Unadjusted first; each pair's family is adjusted once every row is in.
  const pending: { row: TypeRow; a: string; b: string; mean: ComparisonEstimate; median: ComparisonEstimate }[] = [];
  for (const id of ids) {
    const of = impls.flatMap((impl) => sources.filter((s) => s.impl === impl && s.case.id === id));
    const first = of[0]!;
    for (const type of typesOf(of.map((s) => s.case))) {
      const results = of.flatMap((s) => summarizeType(api, s, type) ?? []);
      const base = limitFor(first.run, first.case);
      const row: TypeRow = {
        caseId: id,
        protocol: first.case.protocol,
        model: first.case.model,
        parameters: first.case.parameters,
        type,
        results,
        baseline: base ? summarizeType(api, { impl: BASELINE_PROTOCOL, run: first.run, case: base }, type) : null,
        comparisons: [],
      };
      rows.push(row);
      for (let i = 0; i < of.length; i++)
        for (let j = i + 1; j < of.length; j++) {
          const x = of[i]!;
          const y = of[j]!;
          const means = (s: CaseSource) => s.case.repetitions.flatMap((r) => (r.requestTypes?.[type] ? [r.requestTypes[type].latencyMs.mean] : []));
          const medians = (s: CaseSource) => s.case.repetitions.flatMap((r) => (r.requestTypes?.[type] ? [r.requestTypes[type].latencyMs.median] : []));
          if (means(x).length === 0 || means(y).length === 0) continue;
          const key = `${api}|${id}|${type}|${x.impl}~${y.impl}`;
          const m = compareGroups(means(x), means(y), { key: `${key}|mean`, higherIsBetter: false });
          const md = compareGroups(medians(x), medians(y), { key: `${key}|median`, higherIsBetter: false });
          pending.push({ row, a: x.impl, b: y.impl, mean: m, median: md });
        }
    }
  }
  for (const pair of new Set(pending.map((p) => `${p.a}~${p.b}`))) {
    const family = pending.filter((p) => `${p.a}~${p.b}` === pair);
    const adjusted = adjustFamily([...family.map((p) => p.mean), ...family.map((p) => p.median)]);
    family.forEach((p, i) => p.row.comparisons.push({ a: p.a, b: p.b, mean: adjusted[i]!, median: adjusted[family.length + i]! }));
  }
  return rows;
}

/** Per pair, its family's counts: the mean and median comparisons of every row. */
export function typeFamilies(rows: readonly TypeRow[]): { a: string; b: string; tested: number; raw: number; adjusted: number }[] {
  const pairs = [...new Set(rows.flatMap((r) => r.comparisons.map((c) => `${c.a}~${c.b}`)))];
  return pairs.map((pair) => {
    const cs = rows.flatMap((r) => r.comparisons.filter((c) => `${c.a}~${c.b}` === pair));
    return { a: cs[0]!.a, b: cs[0]!.b, ...countDeclared([...cs.map((c) => c.mean), ...cs.map((c) => c.median)]) };
  });
}
