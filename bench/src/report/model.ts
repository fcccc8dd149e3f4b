// From validated result documents to what the report shows: per API, the first screen's
// answer (model/overview.ts), the runs used, per case and implementation the medians with
// their intervals and the ratio to the database alone (model/summarize.ts), the cases
// grouped in the paper's order (model/order.ts), per pair of implementations the verdicts
// (model/pairs.ts), the failed cases, the paper's claims and the warnings
// (model/warnings.ts). Every number the HTML prints is computed here, so the tests can
// check them.
import { docLabel, isCalibration } from '../record/copies.ts';
import { isDatabaseAlone, type BenchResult } from '../record/result-document.ts';
import type { LoadedRun } from './load.ts';
import { requestTypeRows, typeFamilies, type TypeRow } from './request-types.ts';
import { compactResult } from './papers/compact.ts';
import { evaluateClaims, type ClaimReport } from './papers/evaluate.ts';
import type { PaperClaims } from './papers/claims.ts';
import { tierPoints, type TierPoint } from './tier-points.ts';
import type { CaseGroup, CaseResult, CaseRow } from './rows.ts';
import { failureRow, type FailureRow } from './model/failures.ts';
import { compareParameters, protocolRank } from './model/order.ts';
import { compare, comparePair, type FamilyCounts, type PairComparison } from './model/pairs.ts';
import { summarizeCase } from './model/summarize.ts';
import { overviewCases, type OverviewCase } from './model/overview.ts';
import { baselineWarnings, caseWarnings, limitWarnings, repetitionWarnings, runWarnings } from './model/warnings.ts';

export { LATENCY_STATS, type CaseGroup, type CaseResult, type CaseRow, type CpuEstimates, type LatencyStat } from './rows.ts';

export type { Comparison, FamilyCounts, PairComparison, Verdicts } from './model/pairs.ts';
export type { FailureRow } from './model/failures.ts';
export { LIMIT_SERIES, type Mark, type OverviewCase, type OverviewSeries, type OverviewVerdict } from './model/overview.ts';
export { compareParameters, protocolRank } from './model/order.ts';
export { summarizeCase } from './model/summarize.ts';

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
  /** The first screen: per case each implementation's throughput and p95 beside the database alone, with every verdict about them (model/overview.ts). */
  overview: OverviewCase[];
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

/** Per implementation and case, the newest run that has the case supplies it; how many cases each run supplies; the failed cases. */
function chooseCases(api: string, impls: readonly string[], apiRuns: readonly LoadedRun[]) {
  const used = new Map<LoadedRun, number>();
  const chosen = new Map<string, CaseResult>(); // `${impl}|${caseId}`
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
  return { used, results: [...chosen.values()], failures };
}

/** One row per case (each implementation's result), in the paper's order, grouped by protocol and model. */
function caseGroups(impls: readonly string[], results: readonly CaseResult[]): { rows: CaseRow[]; groups: CaseGroup[] } {
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
  return { rows, groups };
}

/** Every pair of implementations, in name order, over the cases both have. */
function pairsOf(api: string, impls: readonly string[], rows: readonly CaseRow[]): PairComparison[] {
  const pairs: PairComparison[] = [];
  for (let i = 0; i < impls.length; i++)
    for (let j = i + 1; j < impls.length; j++) {
      const [a, b] = [impls[i]!, impls[j]!];
      const cases = rows.flatMap((row) => {
        const x = row.results.find((r) => r.impl === a);
        const y = row.results.find((r) => r.impl === b);
        return x && y ? [compare(api, x, y)] : [];
      });
      pairs.push(comparePair(a, b, cases));
    }
  return pairs;
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
    const { used, results, failures } = chooseCases(api, impls, apiRuns);
    const { rows, groups } = caseGroups(impls, results);
    const pairs = pairsOf(api, impls, rows);
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
      overview: overviewCases(api, impls, rows, pairs),
      tiers: tierPoints(api, results),
      pairs,
      failures,
      warnings: [
        ...repetitionWarnings(impls, results),
        ...runWarnings(apiRuns, used),
        ...limitWarnings(results),
        ...caseWarnings(results),
        ...baselineWarnings(api, apiRuns, used),
      ],
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
