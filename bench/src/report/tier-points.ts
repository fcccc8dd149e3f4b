// The tiers of the limit, per load point: the database alone through a native client, the
// database alone through the implementation language's driver, and each implementation over
// HTTP — throughput and CPU per request (database server, client, implementation) with their
// intervals (the report model's part; html/tiers.ts draws them).
import { bootstrapMedian, bootstrapRatioOfMedians, median, type MedianEstimate, type RatioEstimate } from '../stats/index.ts';
import { isDatabaseAlone, TIERS, tierOf, type BenchCase, type BenchResult, type Tier } from '../record/result-document.ts';
import { sameParameters } from '../record/limit.ts';
import type { CaseResult } from './rows.ts';

export interface TierEntry {
  tier: Tier;
  /** 'database alone', or the implementation and protocol ('express · rest'). */
  who: string;
  caseId: string;
  runId: string;
  n: number;
  throughput: MedianEstimate;
  /** Throughput over the point's native tier (median ratio with its interval); null for the native tier itself or without one. */
  ofNative: RatioEstimate | null;
  /** µs of CPU per request: the database server's, the load's own client (native tool, driver client, or k6), the implementation's (HTTP only). */
  database: MedianEstimate | null;
  client: MedianEstimate | null;
  server: MedianEstimate | null;
  /** The client's mean CPU% (100 = one core), the median over the repetitions. */
  clientCpuPercent: number | null;
  /** Repetitions flagged generator-bound (a native client above NATIVE_CLIENT_BOUND_CPU_PERCENT of its core). */
  bound: number;
  /** Each repetition's throughput (for the ratio to the native tier). */
  throughputs: number[];
}

export interface TierPoint {
  model: string;
  parameters: BenchCase['parameters'];
  entries: TierEntry[];
}

function cpu(reps: BenchCase['repetitions'], tree: 'server' | 'database' | 'generator', key: string): MedianEstimate | null {
  const values = reps.flatMap((r) => (r.cpuPerRequestUs?.[tree] !== undefined ? [r.cpuPerRequestUs[tree]] : []));
  return values.length ? bootstrapMedian(values, { key: `${key}|${tree}` }) : null;
}

function entry(api: string, who: string, run: BenchResult, c: BenchCase): Omit<TierEntry, 'ofNative'> {
  const key = `${api}|tiers|${run.runId}|${c.id}|${who}`;
  const reps = c.repetitions;
  const cpuMeans = reps.flatMap((r) => (r.generator ? [r.generator.cpuPercentMean] : []));
  return {
    tier: tierOf(c),
    who,
    caseId: c.id,
    runId: run.runId,
    n: reps.length,
    throughput: bootstrapMedian(
      reps.map((r) => r.throughput),
      { key: `${key}|throughput` },
    ),
    database: cpu(reps, 'database', key),
    client: cpu(reps, 'generator', key),
    server: isDatabaseAlone(c.protocol) ? null : cpu(reps, 'server', key),
    clientCpuPercent: cpuMeans.length ? median(cpuMeans) : null,
    bound: reps.filter((r) => r.generatorBound).length,
    throughputs: reps.map((r) => r.throughput),
  };
}

/**
 * Per load point (model and parameters) of the HTTP results shown, the database-alone cases of
 * the runs they came from (each once) and the HTTP results, in tier order; points without a
 * database-alone tier are left out.
 */
export function tierPoints(api: string, results: readonly CaseResult[]): TierPoint[] {
  const points: TierPoint[] = [];
  const seen = new Set<string>();
  for (const r of results) {
    let point = points.find((p) => p.model === r.case.model && sameParameters(p.parameters, r.case.parameters));
    if (!point) points.push((point = { model: r.case.model, parameters: r.case.parameters, entries: [] }));
    for (const c of r.run.cases) {
      if (
        !isDatabaseAlone(c.protocol) ||
        c.failure ||
        c.repetitions.length === 0 ||
        c.model !== r.case.model ||
        !sameParameters(c.parameters, r.case.parameters)
      )
        continue;
      const k = `${r.run.runId}|${c.id}`;
      if (seen.has(k)) continue;
      seen.add(k);
      point.entries.push({ ...entry(api, 'database alone', r.run, c), ofNative: null });
    }
    point.entries.push({ ...entry(api, `${r.impl} · ${r.case.protocol}`, r.run, r.case), ofNative: null });
  }
  const rank = (e: TierEntry) => TIERS.indexOf(e.tier);
  return points
    .filter((p) => p.entries.some((e) => e.tier !== 'http'))
    .map((p) => {
      const entries = [...p.entries].sort((a, b) => rank(a) - rank(b));
      // Each entry against the native tier of its own run (a point's entries may come from several runs).
      const nativeOf = (e: TierEntry) => entries.find((x) => x.tier === 'native' && x.runId === e.runId);
      return {
        ...p,
        entries: entries.map((e) => {
          const native = nativeOf(e);
          const ofNative =
            native && e !== native
              ? bootstrapRatioOfMedians(e.throughputs, native.throughputs, { key: `${api}|tiers|${e.runId}|${e.caseId}|${e.who}|of-native` })
              : null;
          return { ...e, ofNative };
        }),
      };
    });
}
