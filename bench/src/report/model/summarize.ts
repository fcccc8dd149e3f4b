// One case of one implementation's run, summarized: the medians of its repetitions with
// their bootstrap intervals, its latency statistics, its ratio to the database alone (the
// limit), resource peaks, CPU per request, the generator's share, errors, the proof of
// work's verdicts and a representative repetition.
import { bootstrapMedian, bootstrapRatioOfMedians, max, median } from '../../stats/index.ts';
import { CEILING_SHARE_WARNING, isDatabaseAlone, tierOf, type BenchCase, type BenchResult, type Repetition } from '../../record/result-document.ts';
import { limitFor } from '../../record/limit.ts';
import { LATENCY_STATS, type CaseResult, type CpuEstimates, type LatencyStat, type WorkSummary } from '../rows.ts';

export function workSummary(reps: readonly Repetition[]): WorkSummary {
  const of = (v: string) => reps.filter((r) => r.work?.verdict === v);
  return {
    checked: of('checked').length,
    notCheckable: of('not checkable').length,
    unrecorded: reps.filter((r) => r.work === undefined).length,
    reasons: [...new Set(of('not checkable').flatMap((r) => r.work!.reasons))],
  };
}

function representative(reps: Repetition[], mid: number): Repetition {
  return reps.reduce((best, r) => (Math.abs(r.throughput - mid) < Math.abs(best.throughput - mid) ? r : best));
}

function cpuEstimates(reps: readonly Repetition[], key: (what: string) => string): CpuEstimates {
  const tree = (t: keyof CpuEstimates) => {
    const values = reps.flatMap((r) => (r.cpuPerRequestUs?.[t] !== undefined ? [r.cpuPerRequestUs[t]] : []));
    return values.length ? bootstrapMedian(values, { key: key(`cpu-${t}`) }) : null;
  };
  return { server: tree('server'), database: tree('database'), generator: tree('generator') };
}

export function summarizeCase(api: string, impl: string, run: BenchResult, c: BenchCase): CaseResult {
  const reps = c.repetitions;
  const key = (what: string) => `${api}|${c.id}|${impl}|${run.runId}|${what}`;
  const throughput = bootstrapMedian(
    reps.map((r) => r.throughput),
    { key: key('throughput') },
  );
  const latency = Object.fromEntries(LATENCY_STATS.map((s) => [s, median(reps.map((r) => r.latencyMs[s]))])) as Record<LatencyStat, number>;
  // The limit: the native tier where it ran, else the driver's; a failed one is no limit to divide by.
  const base = isDatabaseAlone(c.protocol) ? undefined : limitFor(run, c);
  const servers = reps.flatMap((r) => (r.server ? [r.server] : []));
  const generators = reps.flatMap((r) => (r.generator ? [r.generator] : []));
  const shares = reps.flatMap((r) => (r.ceilingShare !== undefined ? [r.ceilingShare] : []));
  const errors: Record<string, number> = {};
  for (const r of reps) for (const [status, n] of Object.entries(r.errors)) errors[status] = (errors[status] ?? 0) + n;
  return {
    impl,
    run,
    case: c,
    n: reps.length,
    throughput,
    latency,
    latencyMedian: bootstrapMedian(
      reps.map((r) => r.latencyMs.median),
      { key: key('latency-median') },
    ),
    latencyP95: bootstrapMedian(
      reps.map((r) => r.latencyMs.p95),
      { key: key('latency-p95') },
    ),
    baseline:
      base && !isDatabaseAlone(c.protocol)
        ? {
            caseId: base.id,
            tier: tierOf(base),
            throughput: bootstrapMedian(
              base.repetitions.map((r) => r.throughput),
              { key: key('baseline') },
            ),
            ratio: bootstrapRatioOfMedians(
              reps.map((r) => r.throughput),
              base.repetitions.map((r) => r.throughput),
              { key: key('baseline-ratio') },
            ),
          }
        : null,
    server: servers.length
      ? {
          cpuPeak: max(servers.map((s) => s.cpuPercentPeak)),
          cpuMean: median(servers.map((s) => s.cpuPercentMean)),
          rssPeak: max(servers.map((s) => s.rssBytesPeak)),
        }
      : null,
    generator: generators.length ? { cpuPeak: max(generators.map((s) => s.cpuPercentPeak)), cpuMean: median(generators.map((s) => s.cpuPercentMean)) } : null,
    cpuPerRequest: cpuEstimates(reps, key),
    baselineCpu: base && !isDatabaseAlone(c.protocol) ? cpuEstimates(base.repetitions, (w) => key(`baseline-${w}`)) : null,
    ceiling: shares.length ? { share: median(shares), above: shares.filter((x) => x > CEILING_SHARE_WARNING).length } : null,
    generatorBound: reps.filter((r) => r.generatorBound).length,
    errors,
    errorCount: Object.values(errors).reduce((a, b) => a + b, 0),
    dropped: reps.reduce((a, r) => a + (r.droppedIterations ?? 0), 0),
    representative: representative(reps, throughput.median),
    work: workSummary(reps),
  };
}
