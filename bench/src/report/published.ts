// A paper's published findings beside ours: the `published` section of an API's scenario
// file names, per finding, the cases of ours that speak to it, the figure to read from each
// repetition, and which implementation the paper found better (or that it found them close).
// Per case: each implementation's median figure with its interval, the ratio of the two
// compared implementations with the rank-test verdict (a finding's cases are one family),
// and whether that case reproduces the finding.
import { adjustFamily, bootstrapMedian, compareGroups, type Adjusted, type ComparisonEstimate, type MedianEstimate } from '../stats/index.ts';
import { caseMatcher } from '../plan/select.ts';
import type { Repetition } from '../record/result-document.ts';
import type { CaseRow } from './rows.ts';

/** What a finding's figure is, read from one repetition. */
export const FIGURES = {
  throughput: { label: 'requests/s', higherIsBetter: true, of: (r: Repetition) => r.throughput },
  'per-minute': { label: 'per minute', higherIsBetter: true, of: (r: Repetition) => r.throughput * 60 },
  'latency-mean': { label: 'mean latency (ms)', higherIsBetter: false, of: (r: Repetition) => r.latencyMs.mean },
  'latency-sd': { label: 'latency SD (ms)', higherIsBetter: false, of: (r: Repetition) => r.latencyMs.sd },
  apdex: { label: 'Apdex', higherIsBetter: true, of: (r: Repetition) => r.apdex?.score },
  // A repetition that survived to the cap has none: only the failing ones are compared.
  'time-to-failure': { label: 'time to failure (s)', higherIsBetter: true, of: (r: Repetition) => r.stress?.failedAfterSeconds },
} as const satisfies Record<string, { label: string; higherIsBetter: boolean; of: (r: Repetition) => number | undefined }>;
export type Figure = keyof typeof FIGURES;

export interface PublishedFinding {
  what: string;
  finding: string;
  /** Absent: the finding is shown as text only (nothing of ours measures it). */
  ours?: {
    /** A glob (or regular expression) over case ids, as CASES= takes. */
    cases: string;
    figure: Figure;
    /** The implementation the paper found better, or `close` when it found no real difference; absent when the finding is not about the pair (ours are shown for reading beside it). */
    expect?: { better: string } | 'close';
  };
  /** Why nothing of ours can reproduce it on this machine (shown as its verdict). */
  notHere?: string;
}

export interface Published {
  source: string;
  findings: PublishedFinding[];
}

/** Does one case reproduce the finding? */
export type Reproduced = 'yes' | 'no: the opposite' | 'no: no significant difference' | 'no: a significant difference' | 'undecided' | 'not a comparison';

export interface FindingCase {
  caseId: string;
  values: { impl: string; figure: MedianEstimate }[];
  /** The paper's better implementation (or the first) over the other; null unless both ran the case. */
  comparison: (ComparisonEstimate & Adjusted) | null;
  reproduced: Reproduced;
}

export interface FindingReport {
  what: string;
  finding: string;
  notHere?: string;
  figure: Figure | null;
  /** The two implementations compared: the paper's better one first. */
  pair: [string, string] | null;
  cases: FindingCase[];
}

/** Each finding with our cases that speak to it (none when the API's implementations are not the paper's pair). */
export function publishedFindings(api: string, impls: readonly string[], rows: readonly CaseRow[], published: Published): FindingReport[] {
  return published.findings.map((f) => {
    const text = { what: f.what, finding: f.finding, ...(f.notHere ? { notHere: f.notHere } : {}) };
    if (!f.ours) return { ...text, figure: null, pair: null, cases: [] };
    const { figure, expect } = f.ours;
    const better = expect === undefined || expect === 'close' ? impls[0] : expect.better;
    const other = impls.find((i) => i !== better);
    const pair: [string, string] | null = better && other && impls.includes(better) ? [better, other] : null;
    const matches = caseMatcher(f.ours.cases);
    const of = (row: CaseRow, impl: string) => {
      const r = row.results.find((x) => x.impl === impl);
      return r ? r.case.repetitions.flatMap((rep) => (rep.invalid ? [] : [FIGURES[figure].of(rep) ?? []].flat())) : [];
    };
    const picked = rows.filter((row) => matches(row.id));
    const key = (row: CaseRow, what: string) => `${api}|published|${f.what}|${row.id}|${what}`;
    const raw = picked.map((row) => {
      const a = pair ? of(row, pair[0]) : [];
      const b = pair ? of(row, pair[1]) : [];
      return a.length && b.length ? compareGroups(a, b, { key: key(row, 'ratio'), higherIsBetter: FIGURES[figure].higherIsBetter }) : null;
    });
    const adjusted = adjustFamily(raw.flatMap((c) => (c ? [c] : [])));
    let k = 0;
    const cases = picked.map((row, i): FindingCase => {
      const comparison = raw[i] ? adjusted[k++]! : null;
      const values = impls.flatMap((impl) => {
        const xs = of(row, impl);
        return xs.length ? [{ impl, figure: bootstrapMedian(xs, { key: key(row, impl) }) }] : [];
      });
      return {
        caseId: row.id,
        values,
        comparison,
        reproduced: expect === undefined ? 'not a comparison' : comparison ? reproduced(comparison, expect === 'close') : 'undecided',
      };
    });
    return { ...text, figure, pair, cases };
  });
}

function reproduced(c: ComparisonEstimate & Adjusted, close: boolean): Reproduced {
  if (c.verdict === 'descriptive' || c.verdict === 'too few repetitions') return 'undecided';
  if (close) return c.verdict === 'no significant difference' ? 'yes' : 'no: a significant difference';
  if (c.verdict === 'faster') return 'yes';
  return c.verdict === 'slower' ? 'no: the opposite' : 'no: no significant difference';
}
