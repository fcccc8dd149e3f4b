// Two implementations compared case by case: throughput, p95 and the server's CPU per
// request, over process pairs where the run started them several times per case, paired
// over slices where both come from one run's interleaved or switched slices, else as two
// groups of repetitions; one pair's table is one family, adjusted together.
import {
  adjustFamily,
  compareGroups,
  comparePaired,
  compareProcessPairs,
  countDeclared,
  PAIRED_FROM,
  type Adjusted,
  type ComparisonEstimate,
} from '../../stats/index.ts';
import type { Repetition } from '../../record/result-document.ts';
import type { CaseResult } from '../rows.ts';

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

type RawComparison = { caseId: string; throughput: ComparisonEstimate; p95: ComparisonEstimate; cpu: ComparisonEstimate | null };

/**
 * One quantity of two cases of one run: over process pairs (stats/process-pairs.ts) when the
 * repetitions come from several starts of the implementations, each start's slices paired
 * by index; else paired over slices (stats/paired.ts) when they have at least PAIRED_FROM
 * repetitions of the same indexes (each index a pair of adjacent slices); else the two
 * groups of repetitions (compareGroups). null without values.
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
        return v !== undefined && v > 0 ? [[r.index, { v, process: r.process }] as const] : [];
      }),
    );
  const xs = values(x);
  const ys = values(y);
  if (xs.size === 0 || ys.size === 0) return null;
  const common = [...xs.keys()].filter((i) => ys.has(i) && xs.get(i)!.process === ys.get(i)!.process);
  const sameRun = x.run.runId === y.run.runId;
  const processes = [...new Set(common.map((i) => xs.get(i)!.process))];
  if (sameRun && processes.length > 1 && !processes.includes(undefined))
    return compareProcessPairs(
      processes.map((p) => {
        const indexes = common.filter((i) => xs.get(i)!.process === p);
        return { a: indexes.map((i) => xs.get(i)!.v), b: indexes.map((i) => ys.get(i)!.v) };
      }),
      { higherIsBetter },
    );
  if (sameRun && common.length >= PAIRED_FROM && common.length === xs.size && common.length === ys.size)
    return comparePaired(
      common.map((i) => xs.get(i)!.v),
      common.map((i) => ys.get(i)!.v),
      { higherIsBetter },
    );
  return compareGroups(
    [...xs.values()].map((e) => e.v),
    [...ys.values()].map((e) => e.v),
    { key, higherIsBetter },
  );
}

export function compare(api: string, x: CaseResult, y: CaseResult): RawComparison {
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
