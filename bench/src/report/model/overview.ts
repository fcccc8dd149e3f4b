// The report's first screen, per API: per case each implementation's throughput and p95
// (medians with their intervals), the database alone beside them, and the verdicts the page
// states about them — against the limit (limit-verdicts.ts, one family per run) and against
// each other implementation (the pairs' families, pairs.ts). Nothing new is decided here:
// the answer is gathered from the families the tables below show, so the two cannot differ.
import { bootstrapMedian, type MedianEstimate, type Verdict } from '../../stats/index.ts';
import { limitFor } from '../../record/limit.ts';
import type { BenchCase, BenchResult } from '../../record/result-document.ts';
import { limitVerdicts, type LimitVerdicts } from '../limit-verdicts.ts';
import type { CaseRow } from '../rows.ts';
import type { PairComparison, Verdicts } from './pairs.ts';

export const LIMIT_SERIES = 'database alone';

/** A verdict as the first screen marks it: the two "no verdict" reasons are one mark there (the tables below say which). */
export type Mark = 'faster' | 'slower' | 'no difference' | 'inconclusive';

export interface OverviewVerdict {
  /** The other side: a limit's label or an implementation's. */
  against: string;
  /** Against the database alone (not every case has it: the verdicts against the others come first then). */
  limit: boolean;
  /** This side's median over the other's (for p95, below 1 is faster). */
  ratio: number;
  verdict: Verdict;
  mark: Mark;
  /** Either side had generator-bound repetitions: k6 may have shaped the figures compared. */
  generatorBound: boolean;
}

export interface OverviewSeries {
  /** An implementation's label, or LIMIT_SERIES (· the implementations it is the limit of, where their runs' limits differ). */
  label: string;
  limit: boolean;
  n: number;
  throughput: MedianEstimate;
  p95: MedianEstimate;
  /** Repetitions k6 was the bottleneck in. */
  generatorBound: number;
  /** Against the database alone, then each other implementation in the API's order; none for a limit. */
  throughputVerdicts: OverviewVerdict[];
  p95Verdicts: OverviewVerdict[];
}

export interface OverviewCase {
  id: string;
  protocol: string;
  model: string;
  parameters: BenchCase['parameters'];
  /** The limit(s) first, then the implementations in the API's order. */
  series: OverviewSeries[];
}

export function toMark(v: Verdict): Mark {
  if (v === 'faster' || v === 'slower') return v;
  return v === 'no significant difference' ? 'no difference' : 'inconclusive';
}

/** The other side's verdict: a pair's verdicts are its first implementation's. */
function flip(v: Verdict): Verdict {
  return v === 'faster' ? 'slower' : v === 'slower' ? 'faster' : v;
}

function verdictOf(against: string, limit: boolean, c: Verdicts, flipped: boolean, generatorBound: boolean): OverviewVerdict {
  const verdict = flipped ? flip(c.verdict) : c.verdict;
  return { against, limit, ratio: flipped ? 1 / c.ratio : c.ratio, verdict, mark: toMark(verdict), generatorBound };
}

const boundIn = (c: Pick<BenchCase, 'repetitions'>) => c.repetitions.filter((r) => r.generatorBound).length;

/**
 * Per case in the rows' order: the limits the implementations were measured against (one
 * series per run's limit case: several only where implementations come from different runs),
 * then each implementation with its verdicts.
 */
export function overviewCases(api: string, impls: readonly string[], rows: readonly CaseRow[], pairs: readonly PairComparison[]): OverviewCase[] {
  const perRun = new Map<BenchResult, LimitVerdicts>();
  const limitFamily = (run: BenchResult) => perRun.get(run) ?? perRun.set(run, limitVerdicts(run)).get(run)!;
  return rows.map((row) => {
    const limits = new Map<string, { c: BenchCase; run: BenchResult; of: string[] }>();
    for (const r of row.results) {
      const c = limitFor(r.run, r.case);
      if (!c) continue;
      const key = `${r.run.runId}|${c.id}`;
      const entry = limits.get(key) ?? limits.set(key, { c, run: r.run, of: [] }).get(key)!;
      entry.of.push(r.impl);
    }
    const limitLabel = (impl: string) => {
      if (limits.size <= 1) return LIMIT_SERIES;
      return `${LIMIT_SERIES} · ${[...limits.values()].find((l) => l.of.includes(impl))!.of.join(', ')}`;
    };
    const limitSeries = [...limits.values()].map(({ c, run, of }): OverviewSeries => {
      const key = (what: string) => `${api}|${c.id}|${LIMIT_SERIES}|${run.runId}|${what}`;
      return {
        label: limitLabel(of[0]!),
        limit: true,
        n: c.repetitions.length,
        throughput: bootstrapMedian(
          c.repetitions.map((r) => r.throughput),
          { key: key('throughput') },
        ),
        p95: bootstrapMedian(
          c.repetitions.map((r) => r.latencyMs.p95),
          { key: key('p95') },
        ),
        generatorBound: boundIn(c),
        throughputVerdicts: [],
        p95Verdicts: [],
      };
    });
    const implSeries = row.results.map((r): OverviewSeries => {
      const throughputVerdicts: OverviewVerdict[] = [];
      const p95Verdicts: OverviewVerdict[] = [];
      const vsLimit = limitFamily(r.run).cases.find((c) => c.caseId === r.case.id);
      const limitCase = limitFor(r.run, r.case);
      if (vsLimit && limitCase) {
        const bound = r.generatorBound > 0 || boundIn(limitCase) > 0;
        throughputVerdicts.push(verdictOf(limitLabel(r.impl), true, vsLimit.throughput, false, bound));
        p95Verdicts.push(verdictOf(limitLabel(r.impl), true, vsLimit.p95, false, bound));
      }
      for (const other of impls) {
        if (other === r.impl) continue;
        const pair = pairs.find((p) => (p.a === r.impl && p.b === other) || (p.a === other && p.b === r.impl));
        const c = pair?.cases.find((x) => x.caseId === row.id);
        const theirs = row.results.find((x) => x.impl === other);
        if (!pair || !c || !theirs) continue;
        const bound = r.generatorBound > 0 || theirs.generatorBound > 0;
        throughputVerdicts.push(verdictOf(other, false, c.throughput, pair.a !== r.impl, bound));
        p95Verdicts.push(verdictOf(other, false, c.p95, pair.a !== r.impl, bound));
      }
      return {
        label: r.impl,
        limit: false,
        n: r.n,
        throughput: r.throughput,
        p95: r.latencyP95,
        generatorBound: r.generatorBound,
        throughputVerdicts,
        p95Verdicts,
      };
    });
    return { id: row.id, protocol: row.protocol, model: row.model, parameters: row.parameters, series: [...limitSeries, ...implSeries] };
  });
}
