// Each case of one run against its own database-alone case (the limit: the native tier where it ran, limitFor): the verdict a run of
// one implementation can give on its own. Throughput and p95 of every case with a limit are
// one family, adjusted together (Benjamini–Hochberg), as the report's pair tables are.
import { adjustFamily, compareGroups, countDeclared } from '../stats/index.ts';
import { isDatabaseAlone, type BenchResult } from '../record/result-document.ts';
import { limitFor } from '../record/limit.ts';
import type { FamilyCounts, Verdicts } from './model.ts';

export interface LimitComparison {
  caseId: string;
  limitId: string;
  throughput: Verdicts;
  p95: Verdicts;
}

export interface LimitVerdicts {
  cases: LimitComparison[];
  family: FamilyCounts;
}

/** The run's served cases against their measured limits (failed cases and cases without one are left out). */
export function limitVerdicts(doc: BenchResult): LimitVerdicts {
  const pairs = doc.cases.flatMap((c) => {
    if (isDatabaseAlone(c.protocol) || c.failure || c.repetitions.length === 0) return [];
    const limit = limitFor(doc, c);
    return limit ? [{ c, limit }] : [];
  });
  const key = (id: string, what: string) => `${doc.api}|${id}|${doc.implementation.name}~database|${doc.runId}|${what}`;
  const raw = pairs.map(({ c, limit }) => ({
    caseId: c.id,
    limitId: limit.id,
    throughput: compareGroups(
      c.repetitions.map((r) => r.throughput),
      limit.repetitions.map((r) => r.throughput),
      { key: key(c.id, 'throughput'), higherIsBetter: true },
    ),
    p95: compareGroups(
      c.repetitions.map((r) => r.latencyMs.p95),
      limit.repetitions.map((r) => r.latencyMs.p95),
      { key: key(c.id, 'p95'), higherIsBetter: false },
    ),
  }));
  const adjusted = adjustFamily([...raw.map((c) => c.throughput), ...raw.map((c) => c.p95)]);
  return {
    cases: raw.map((c, i) => ({ caseId: c.caseId, limitId: c.limitId, throughput: adjusted[i]!, p95: adjusted[raw.length + i]! })),
    family: countDeclared(adjusted),
  };
}
