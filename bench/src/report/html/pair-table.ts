// A pair of implementations compared on the report page: per case throughput, p95 and CPU
// per request, each with its ratio, interval, detectable difference and verdict (raw and
// adjusted over the pair's family), and the family's counts.
import { CONFIDENCE, MIN_VERDICT_REPETITIONS, type Verdict } from '../../stats/index.ts';
import { caseLabel } from './charts.ts';
import { detectable, interval, ms, pValue, rate, relative } from '../format.ts';
import type { ApiReport, FamilyCounts, PairComparison, Verdicts } from '../model.ts';
import { esc, PROTOCOL_NAMES, swatch, table } from './html-parts.ts';
import { methodNote, precisionLine } from '../comparison-summary.ts';
const VERDICT_TEXT: Record<Verdict, string> = {
  faster: 'faster',
  slower: 'slower',
  'no significant difference': 'no significant difference',
  descriptive: `descriptive only (< ${MIN_VERDICT_REPETITIONS} reps)`,
  'too few repetitions': 'too few repetitions',
};

function verdictCell(v: Verdict, text: string = VERDICT_TEXT[v]): string {
  const cls = v === 'faster' ? 'faster' : v === 'slower' ? 'slower' : v === 'too few repetitions' || v === 'descriptive' ? 'few' : 'nsd';
  return `<span class="${cls}">${esc(text)}</span>`;
}

/** The verdict columns of one comparison: p raw (adjusted), the raw verdict, the adjusted one. */
export function verdictCells(c: Verdicts): string[] {
  return [c.test ? `${pValue(c.test.p)} <small>(${pValue(c.pAdjusted)})</small>` : '—', verdictCell(c.rawVerdict), `<b>${verdictCell(c.verdict)}</b>`];
}

export const VERDICT_HEADS = ['p (adj.)', 'raw verdict', 'verdict'];

export function familyNote(f: FamilyCounts, what: string): string {
  const aa = (n: number) => `${n} of ${f.tested}`;
  return f.tested
    ? `Family: ${what} — ${f.tested} tested comparisons, adjusted together (Benjamini–Hochberg). Declared faster or slower: ${aa(f.raw)} raw, ${aa(f.adjusted)} after the adjustment.`
    : `No comparison here has ${MIN_VERDICT_REPETITIONS} repetitions per implementation, so none gets a verdict.`;
}

export function pairTable(report: ApiReport, pair: PairComparison): string {
  const byId = new Map(report.groups.flatMap((g) => g.rows.map((row) => [row.id, row] as const)));
  const rows = pair.cases.map((c) => {
    const row = byId.get(c.caseId)!;
    return [
      `${esc(PROTOCOL_NAMES[row.protocol] ?? row.protocol)} ${esc(row.model)}`,
      esc(caseLabel(row.parameters)),
      `${rate(c.throughput.medianA)} / ${rate(c.throughput.medianB)}`,
      `${relative(c.throughput.ratio)} <small>${interval(c.throughput.ci, relative)}</small>`,
      detectable(c.throughput),
      ...verdictCells(c.throughput),
      `${ms(c.p95.medianA)} / ${ms(c.p95.medianB)}`,
      `${relative(c.p95.ratio)} <small>${interval(c.p95.ci, relative)}</small>`,
      detectable(c.p95),
      ...verdictCells(c.p95),
      ...(c.cpu
        ? [
            `${c.cpu.medianA.toFixed(0)} / ${c.cpu.medianB.toFixed(0)}`,
            `${relative(c.cpu.ratio)} <small>${interval(c.cpu.ci, relative)}</small>`,
            detectable(c.cpu),
            ...verdictCells(c.cpu),
          ]
        : ['—', '—', '—', '—', '—', '—']),
    ];
  });
  const a = esc(pair.a);
  const b = esc(pair.b);
  return `<h4>${swatch(pair.a, report.impls)} vs ${swatch(pair.b, report.impls)}</h4>
<p class="note">Verdicts are ${a}'s (for p95 latency and CPU µs per request, lower is faster). Intervals are ${CONFIDENCE * 100}%; ${esc(methodNote(pair.cases, pair.a, pair.b))}, in brackets adjusted over the family; the verdict is the adjusted one, the raw verdict treats the row as if it were alone. MDE: the smallest difference the comparison could have detected (80% power, its own spread; bench/docs/precision.md). ${familyNote(pair.family, 'the throughput, p95 and CPU per request of every case in this table')} Precision: ${esc(precisionLine(pair.cases))}.</p>
${pair.cases.length ? table(['protocol', 'case', `req/s ${a} / ${b}`, 'throughput difference [CI]', 'MDE', ...VERDICT_HEADS, `p95 ms ${a} / ${b}`, 'p95 difference [CI]', 'MDE', ...VERDICT_HEADS, `CPU µs/req ${a} / ${b}`, 'CPU difference [CI]', 'MDE', ...VERDICT_HEADS], rows, 2, 'cmp cases') : '<p class="note">No case in common.</p>'}`;
}
