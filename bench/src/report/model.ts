// From validated result documents to what the report shows: per API, the runs used,
// per case and implementation the medians with their intervals, the ratio to the
// database alone, resource peaks, and per pair of implementations the verdicts.
// Every number the HTML prints is computed here, so the tests can check them.
import {
  adjustFamily,
  bootstrapMedian,
  bootstrapRatioOfMedians,
  compareGroups,
  comparePaired,
  countDeclared,
  PAIRED_FROM,
  max,
  median,
  MIN_REPETITIONS,
  MIN_VERDICT_REPETITIONS,
  type Adjusted,
  type ComparisonEstimate,
} from '../stats/index.ts';
import { docLabel, isCalibration } from '../record/copies.ts';
import type { LoadedRun } from './load.ts';
import { requestTypeRows, typeFamilies, type TypeRow } from './request-types.ts';
import { compactResult } from './papers/compact.ts';
import { evaluateClaims, type ClaimReport } from './papers/evaluate.ts';
import type { PaperClaims } from './papers/claims.ts';
import { tierPoints, type TierPoint } from './tier-points.ts';
import { LATENCY_STATS, type CaseGroup, type CaseResult, type CaseRow, type CpuEstimates, type LatencyStat } from './rows.ts';
import {
  CEILING_SHARE_WARNING,
  NATIVE_CLIENT_BOUND_CPU_PERCENT,
  isDatabaseAlone,
  limitFor,
  sameParameters,
  tierOf,
  type BenchCase,
  type BenchResult,
  type CaseFailure,
  type Repetition,
} from '../record/result-document.ts';

export { LATENCY_STATS, type CaseGroup, type CaseResult, type CaseRow, type CpuEstimates, type LatencyStat } from './rows.ts';

export type Verdicts = ComparisonEstimate & Adjusted;

export interface Comparison {
  caseId: string;
  throughput: Verdicts;
  p95: Verdicts;
  /** The implementation's CPU µs per request (lower is better: "faster" = cheaper); null where a side recorded none. */
  cpu: Verdicts | null;
}

/** How many comparisons of a family were tested, and declared raw and after the adjustment. */
export interface FamilyCounts {
  tested: number;
  raw: number;
  adjusted: number;
}

export interface PairComparison {
  a: string;
  b: string;
  /** The family: throughput and p95 of every case both have, adjusted together. */
  cases: Comparison[];
  family: FamilyCounts;
}

export interface RunInfo {
  file: string;
  doc: BenchResult;
  /** Cases this run supplies to the report (a newer run of the same implementation supplies the rest). */
  casesUsed: number;
}

export interface ApiReport {
  api: string;
  /** Unique in the page: the API, or the API and the A/A run. */
  id: string;
  /** An A/A calibration run (copies.ts): the same implementation against itself; every verdict is a false one. */
  calibration: { impl: string; runId: string; counts: FamilyCounts } | null;
  /** Labels: implementation names, and name#k for the copies of an A/A run. */
  impls: string[];
  runs: RunInfo[];
  groups: CaseGroup[];
  /** Per load point, the tiers of the limit (native, driver) beside each implementation over HTTP (tiers.ts). */
  tiers: TierPoint[];
  /** Every pair of implementations, in name order. */
  pairs: PairComparison[];
  /** Cases whose repetitions have request types: one row per case and type. */
  requestTypes: TypeRow[];
  /** The paper's claims checked against this page's runs (apis/<api>/bench/claims.yaml), when a claim's pair ran one of its cases; docs/papers.md is their page. */
  claims: ClaimReport[] | null;
  /** Cases a run recorded as failed (left out of every table and chart above; an older run's measurement of the case is shown instead, if there is one). */
  failures: FailureRow[];
  warnings: string[];
}

export interface FailureRow {
  impl: string;
  runId: string;
  file: string;
  case: BenchCase;
  failure: CaseFailure;
  /** What the repetitions before the failure (and the failed one's measured part) measured. */
  measured: { n: number; throughput: number; p95: number } | null;
}

const PROTOCOL_ORDER = ['rest', 'graphql'];

function compareValues(a: unknown, b: unknown): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a).localeCompare(String(b));
}

/** Cases in the paper's order: by each parameter in turn, numerically. */
export function compareParameters(a: BenchCase['parameters'], b: BenchCase['parameters']): number {
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])];
  for (const k of keys) {
    const c = compareValues(a[k], b[k]);
    if (c !== 0) return c;
  }
  return 0;
}

export function protocolRank(protocol: string): number {
  const i = PROTOCOL_ORDER.indexOf(protocol);
  return i === -1 ? PROTOCOL_ORDER.length : i;
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
  };
}

type RawComparison = { caseId: string; throughput: ComparisonEstimate; p95: ComparisonEstimate; cpu: ComparisonEstimate | null };

/**
 * One quantity of two cases: paired over slices (stats/paired.ts) when both come from the same
 * run and have at least PAIRED_FROM repetitions of the same indexes (each index a pair of
 * adjacent slices), else the two groups of repetitions (compareGroups). null without values.
 */
function compareQuantity(
  x: CaseResult,
  y: CaseResult,
  of: (r: Repetition) => number | undefined,
  key: string,
  higherIsBetter: boolean,
): ComparisonEstimate | null {
  const values = (c: CaseResult) =>
    new Map(
      c.case.repetitions.flatMap((r) => {
        const v = of(r);
        return v !== undefined && v > 0 ? [[r.index, v] as const] : [];
      }),
    );
  const xs = values(x);
  const ys = values(y);
  if (xs.size === 0 || ys.size === 0) return null;
  const common = [...xs.keys()].filter((i) => ys.has(i));
  if (x.run.runId === y.run.runId && common.length >= PAIRED_FROM && common.length === xs.size && common.length === ys.size)
    return comparePaired(
      common.map((i) => xs.get(i)!),
      common.map((i) => ys.get(i)!),
      { higherIsBetter },
    );
  return compareGroups([...xs.values()], [...ys.values()], { key, higherIsBetter });
}

function compare(api: string, x: CaseResult, y: CaseResult): RawComparison {
  const key = `${api}|${x.case.id}|${x.impl}~${y.impl}`;
  const tp = compareQuantity(x, y, (r) => r.throughput, `${key}|throughput`, true)!;
  const p95 = compareQuantity(x, y, (r) => r.latencyMs.p95, `${key}|p95`, false)!;
  const cpu = compareQuantity(x, y, (r) => r.cpuPerRequestUs?.server, `${key}|cpu`, false);
  return { caseId: x.case.id, throughput: tp, p95, cpu };
}

/** One pair's table is one family: its throughput, p95 and CPU-per-request comparisons are adjusted together. */
export function comparePair(a: string, b: string, raw: RawComparison[]): PairComparison {
  const cpus = raw.flatMap((c) => (c.cpu ? [c.cpu] : []));
  const adjusted = adjustFamily([...raw.map((c) => c.throughput), ...raw.map((c) => c.p95), ...cpus]);
  let k = 2 * raw.length;
  const cases = raw.map((c, i) => ({ caseId: c.caseId, throughput: adjusted[i]!, p95: adjusted[raw.length + i]!, cpu: c.cpu ? adjusted[k++]! : null }));
  return { a, b, cases, family: countDeclared(adjusted) };
}

/** Above this CV of the control the machine was noisy at the start of the run. */
const NOISY_CV = 0.1;

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

function warningsFor(results: CaseResult[]): string[] {
  const out: string[] = [];
  for (const r of results) {
    const where = `${r.impl} ${r.case.id}`;
    if (r.generatorBound)
      out.push(
        `${where}: ${r.generatorBound} of ${plural(r.n, 'repetition')} generator-bound (k6 CPU peak ${r.generator ? Math.round(r.generator.cpuPeak) : '?'}%${r.dropped ? `, ${r.dropped} dropped iterations` : ''}): the numbers may measure k6, not the server`,
      );
    if (r.errorCount)
      out.push(
        `${where}: ${plural(r.errorCount, 'failed request')} over ${plural(r.n, 'repetition')} (by status: ${Object.entries(r.errors)
          .map(([s, n]) => `${s === '0' ? 'no response' : s} × ${n}`)
          .join(', ')})`,
      );
    if (r.dropped && !r.generatorBound) out.push(`${where}: ${r.dropped} dropped iterations`);
    if (r.ceiling?.above)
      out.push(
        `${where}: ${r.ceiling.above} of ${plural(r.n, 'repetition')} above ${CEILING_SHARE_WARNING * 100}% of the generator's ceiling (median ${Math.round(r.ceiling.share * 100)}% of ${r.run.generator.ceiling ? Math.round(r.run.generator.ceiling.rate) : '?'} req/s): k6 may have shaped the numbers`,
      );
  }
  return out;
}

function failureRow(impl: string, run: LoadedRun, c: BenchCase): FailureRow {
  const reps = c.repetitions;
  return {
    impl,
    runId: run.doc.runId,
    file: run.file,
    case: c,
    failure: c.failure!,
    measured: reps.length ? { n: reps.length, throughput: median(reps.map((r) => r.throughput)), p95: median(reps.map((r) => r.latencyMs.p95)) } : null,
  };
}

/**
 * Groups the runs by API, each A/A calibration run apart; per implementation and case, the
 * newest run that has the case supplies it.
 */
export function buildModel(runs: LoadedRun[], papers: readonly PaperClaims[] = []): ApiReport[] {
  const sectionOf = (r: LoadedRun) => (isCalibration(r.doc) ? `${r.doc.api}-aa-${r.doc.runId}` : r.doc.api);
  // Each API's ordinary runs first, then its A/A runs by time.
  const sections = [...new Set(runs.map(sectionOf))].sort();
  return sections.map((id) => {
    const apiRuns = runs.filter((r) => sectionOf(r) === id).sort((a, b) => b.doc.startedAt.localeCompare(a.doc.startedAt));
    const api = apiRuns[0]!.doc.api;
    const impls = [...new Set(apiRuns.map((r) => docLabel(r.doc)))].sort();
    const used = new Map<LoadedRun, number>();
    const chosen = new Map<string, CaseResult>(); // `${impl}|${caseId}`
    const warnings: string[] = [];
    const failures: FailureRow[] = [];
    for (const impl of impls) {
      for (const run of apiRuns.filter((r) => docLabel(r.doc) === impl)) {
        for (const c of run.doc.cases) {
          if (c.failure) {
            // A database-alone case is in every implementation's document of the run: listed once.
            const listed = isDatabaseAlone(c.protocol) && failures.some((f) => f.runId === run.doc.runId && f.case.id === c.id);
            if (!listed) failures.push(failureRow(impl, run, c));
            continue;
          }
          if (isDatabaseAlone(c.protocol) || chosen.has(`${impl}|${c.id}`)) continue;
          chosen.set(`${impl}|${c.id}`, summarizeCase(api, impl, run.doc, c));
          used.set(run, (used.get(run) ?? 0) + 1);
        }
      }
    }
    const results = [...chosen.values()];
    const ids = [...new Set(results.map((r) => r.case.id))];
    const rows: CaseRow[] = ids
      .map((id) => {
        const rs = impls.flatMap((impl) => results.filter((r) => r.impl === impl && r.case.id === id));
        const c = rs[0]!.case;
        return { id, protocol: c.protocol, model: c.model, parameters: c.parameters, results: rs };
      })
      .sort(
        (a, b) =>
          protocolRank(a.protocol) - protocolRank(b.protocol) ||
          a.protocol.localeCompare(b.protocol) ||
          a.model.localeCompare(b.model) ||
          compareParameters(a.parameters, b.parameters),
      );
    const groups: CaseGroup[] = [];
    for (const row of rows) {
      const key = `${row.protocol}/${row.model}`;
      const g = groups.find((x) => x.key === key) ?? groups[groups.push({ key, protocol: row.protocol, model: row.model, rows: [] }) - 1]!;
      g.rows.push(row);
    }
    const pairs: PairComparison[] = [];
    for (let i = 0; i < impls.length; i++)
      for (let j = i + 1; j < impls.length; j++) {
        const a = impls[i]!;
        const b = impls[j]!;
        const cases = rows.flatMap((row) => {
          const x = row.results.find((r) => r.impl === a);
          const y = row.results.find((r) => r.impl === b);
          return x && y ? [compare(api, x, y)] : [];
        });
        pairs.push(comparePair(a, b, cases));
      }
    for (const impl of impls) {
      const few = results.filter((r) => r.impl === impl && r.n < MIN_REPETITIONS);
      if (few.length)
        warnings.push(
          `${impl}: too few repetitions in ${plural(few.length, 'case')} (${[...new Set(few.map((r) => r.n))].join(', ')} per case; at least ${MIN_REPETITIONS} are needed): no confidence intervals and no verdicts there`,
        );
      const descriptive = results.filter((r) => r.impl === impl && r.n >= MIN_REPETITIONS && r.n < MIN_VERDICT_REPETITIONS);
      if (descriptive.length)
        warnings.push(
          `${impl}: ${plural(descriptive.length, 'case')} with ${[...new Set(descriptive.map((r) => r.n))].join(', ')} repetitions: intervals shown as descriptive only, no verdicts (a verdict needs at least ${MIN_VERDICT_REPETITIONS} per implementation)`,
        );
    }
    for (const run of apiRuns) {
      if (run.doc.options.quick && used.has(run))
        warnings.push(`${docLabel(run.doc)}: run ${run.doc.runId} is a QUICK smoke run (${run.doc.options.durationSeconds} s per case), not a measurement`);
      if (used.has(run) && !run.doc.generator.ceiling)
        warnings.push(`${docLabel(run.doc)}: run ${run.doc.runId} recorded no generator ceiling: nothing tells whether k6 limited its cases`);
      const cv = run.doc.generator.ceiling?.cv;
      if (used.has(run) && cv !== undefined && cv > NOISY_CV)
        warnings.push(
          `${docLabel(run.doc)}: run ${run.doc.runId}: the control (k6 against the no-op server) varied by ${(cv * 100).toFixed(1)}% (CV) within its few seconds: differences of that order between runs may be the machine's`,
        );
      const busy = run.doc.machine.noise?.busyProcesses ?? [];
      if (used.has(run) && busy.length)
        warnings.push(
          `${docLabel(run.doc)}: run ${run.doc.runId} started on a busy machine: ${busy.map((p) => `${p.command} (pid ${p.pid}) ${p.cpuPercent}%`).join(', ')} of a core, load average ${run.doc.machine.noise!.loadAverage.join(' ')}`,
        );
      if (!used.has(run)) warnings.push(`${docLabel(run.doc)}: run ${run.doc.runId} is superseded by newer runs with the same cases and not shown`);
      if (run.doc.complete === false)
        warnings.push(
          `${docLabel(run.doc)}: run ${run.doc.runId} is incomplete: ${run.doc.cases.length} of ${run.doc.plannedCases ?? '?'} planned cases recorded (stopped, or still running; make bench … RESUME=${run.doc.runId} continues it)`,
        );
      const failedHere = run.doc.cases.filter((c) => c.failure);
      if (failedHere.length)
        warnings.push(
          `${docLabel(run.doc)}: run ${run.doc.runId}: ${plural(failedHere.length, 'case')} of ${run.doc.cases.length} failed and ${failedHere.length === 1 ? 'is' : 'are'} left out of the tables (see "Failed cases"): ${failedHere.map((c) => `${c.id} (${c.failure!.kind})`).join(', ')}`,
        );
    }
    for (const r of results) {
      if (r.baseline) continue;
      const failed = r.run.cases.some(
        (b) => isDatabaseAlone(b.protocol) && b.failure && b.model === r.case.model && sameParameters(b.parameters, r.case.parameters),
      );
      warnings.push(
        `${r.impl} ${r.case.id}: ${failed ? 'the database-alone case with the same model and parameters failed in that run' : 'the run has no database-alone case with the same model and parameters'}`,
      );
    }
    warnings.push(...warningsFor(results));
    // A generator-bound or failing baseline understates the limit every ratio divides by: one line per run.
    for (const run of apiRuns.filter((r) => used.has(r))) {
      const impl = docLabel(run.doc);
      const baselines = run.doc.cases.filter((c) => isDatabaseAlone(c.protocol) && !c.failure).map((c) => summarizeCase(api, impl, run.doc, c));
      const bound = baselines.filter((b) => b.generatorBound && tierOf(b.case) !== 'native');
      const nativeBound = baselines.filter((b) => b.generatorBound && tierOf(b.case) === 'native');
      if (nativeBound.length)
        warnings.push(
          `${impl} run ${run.doc.runId}: the native client used more than ${NATIVE_CLIENT_BOUND_CPU_PERCENT}% of its core in ${nativeBound.length} of ${plural(baselines.filter((b) => tierOf(b.case) === 'native').length, 'native case')} (mean CPU up to ${Math.round(max(nativeBound.map((b) => b.generator?.cpuMean ?? 0)))}%): there the native tier may be the client's limit, not the database's: ${nativeBound.map((b) => b.case.id).join(', ')}`,
        );
      const failing = baselines.filter((b) => b.errorCount);
      const isLimit = (b: CaseResult) => limitFor(run.doc, b.case) === b.case;
      const boundLimits = bound.filter(isLimit);
      const peak = (of: CaseResult[]) => Math.round(max(of.map((b) => b.generator?.cpuPeak ?? 0)));
      if (boundLimits.length)
        warnings.push(
          `${impl} run ${run.doc.runId}: the limit (the database alone) was generator-bound in ${boundLimits.length} of ${plural(baselines.filter(isLimit).length, 'case')} (its client's CPU peak up to ${peak(boundLimits)}%), so the limit there may be understated: ${boundLimits.map((b) => b.case.id).join(', ')}`,
        );
      const boundTiers = bound.filter((b) => !isLimit(b));
      if (boundTiers.length)
        warnings.push(
          `${impl} run ${run.doc.runId}: the driver tier's client was generator-bound in ${boundTiers.length} of ${plural(baselines.filter((b) => tierOf(b.case) === 'driver').length, 'driver case')} (CPU peak up to ${peak(boundTiers)}%): there it shows the driver client's cost as much as the database's (the limit is the native tier): ${boundTiers.map((b) => b.case.id).join(', ')}`,
        );
      if (failing.length)
        warnings.push(
          `${impl} run ${run.doc.runId}: the database alone had failed queries in ${plural(failing.length, 'case')}: ${failing.map((b) => `${b.case.id} (${b.errorCount})`).join(', ')}`,
        );
    }
    const typeRows = requestTypeRows(
      api,
      impls,
      results.filter((r) => r.case.repetitions.some((x) => x.requestTypes)).map((r) => ({ impl: r.impl, run: r.run, case: r.case })),
    );
    const paper = papers.find((p) => p.api === api);
    const calibration = isCalibration(apiRuns[0]!.doc)
      ? { impl: apiRuns[0]!.doc.implementation.name, runId: apiRuns[0]!.doc.runId, counts: calibrationCounts(pairs, typeRows) }
      : null;
    return {
      api,
      id,
      calibration,
      impls,
      requestTypes: typeRows,
      claims: paper ? claimsOf(paper, apiRuns) : null,
      // By implementation, newest first within each.
      runs: impls.flatMap((impl) => apiRuns.filter((r) => docLabel(r.doc) === impl).map((r) => ({ file: r.file, doc: r.doc, casesUsed: used.get(r) ?? 0 }))),
      groups,
      tiers: tierPoints(api, results),
      pairs,
      failures,
      warnings,
    };
  });
}

/** The claims against each implementation's newest run of those shown; null when no claim's pair ran a case of it. */
function claimsOf(paper: PaperClaims, runs: readonly LoadedRun[]): ClaimReport[] | null {
  const newest = new Map<string, BenchResult>();
  for (const { doc } of runs) {
    const current = newest.get(docLabel(doc));
    if (!current || doc.runId > current.runId) newest.set(docLabel(doc), doc);
  }
  const reports = evaluateClaims(paper, compactResult(paper, [...newest.values()], ''));
  return reports.some((r) => r.units.length) ? reports : null;
}

/** An A/A run's figures: every tested comparison of its tables, raw and adjusted (each table its own family). */
function calibrationCounts(pairs: readonly PairComparison[], typeRows: readonly TypeRow[]): FamilyCounts {
  const families = [...pairs.map((p) => p.family), ...typeFamilies(typeRows)];
  return families.reduce((a, f) => ({ tested: a.tested + f.tested, raw: a.raw + f.raw, adjusted: a.adjusted + f.adjusted }), {
    tested: 0,
    raw: 0,
    adjusted: 0,
  });
}
