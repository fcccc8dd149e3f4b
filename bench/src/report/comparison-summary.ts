// The comparisons of one run of several implementations (or of an A/A run) as Markdown:
// what the runner prints after the per-implementation tables. The same model as the HTML
// report (buildModel), so the same families, p-values and verdicts.
import { ALPHA } from '../stats/index.ts';
import { detectable, pValue, relative } from './format.ts';
import type { ApiReport, FamilyCounts, Verdicts } from './model.ts';
import { typeFamilies } from './request-types.ts';

const cells = (c: Verdicts | null) =>
  c === null
    ? ['—', '—', '—', '—', '—']
    : [
        `${relative(c.ratio)}${c.ci ? ` [${relative(c.ci.low)}, ${relative(c.ci.high)}]` : ''}`,
        detectable(c),
        c.test ? `${pValue(c.test.p)} (${pValue(c.pAdjusted)})` : '—',
        c.rawVerdict,
        `**${c.verdict}**`,
      ];

const counts = (f: FamilyCounts) => `${f.tested} tested; declared faster or slower: ${f.raw} raw, ${f.adjusted} after the Benjamini–Hochberg adjustment`;

/** How a table's comparisons were made, in words: over process pairs, paired slices, or groups of repetitions. */
export function methodNote(cases: readonly { throughput: Verdicts }[], a: string, b: string): string {
  const first = cases.find((c) => c.throughput.processPairs !== undefined || c.throughput.paired)?.throughput;
  if (first?.processPairs !== undefined)
    return `each case's implementations were started ${first.processPairs} times, each pair of processes measured in slices: a difference is the mean over the process pairs of each pair's Hodges–Lehmann estimate of its slices' ratios ${a}/${b} − 1, with its Student's t interval on ${first.processPairs - 1} degrees of freedom; p is the t-test's`;
  if (first?.paired)
    return `the implementations ran in interleaved slices: a difference is the Hodges–Lehmann estimate of the pairs' ratios ${a}/${b} − 1 with its signed-rank interval; p is the exact signed-rank test's`;
  return `a difference is the ratio of the medians ${a}/${b} − 1, with its bootstrap interval; p is the exact Mann–Whitney test's`;
}

type CaseVerdicts = { throughput: Verdicts; p95: Verdicts; cpu: Verdicts | null };

/** `part` of each quantity of the table's cases: throughput, p95, CPU per request. */
const perQuantity = (cases: readonly CaseVerdicts[], part: (name: string, vs: (Verdicts | null)[]) => string): string[] => [
  part(
    'throughput',
    cases.map((c) => c.throughput),
  ),
  part(
    'p95',
    cases.map((c) => c.p95),
  ),
  part(
    'CPU/request',
    cases.map((c) => c.cpu),
  ),
];

/** Over process pairs: the spread of the process pairs' log ratios against what the slices alone would give (stats/process-pairs.ts), per quantity. */
function processSpread(cases: readonly CaseVerdicts[]): string {
  const pct = (xs: number[]) => `${(Math.min(...xs) * 100).toFixed(1)}–${(Math.max(...xs) * 100).toFixed(1)}%`;
  const parts = perQuantity(cases, (name, vs) => {
    const got = vs.filter((v): v is Verdicts => v?.betweenSd !== undefined);
    const within = got.flatMap((v) => (v.withinSd !== undefined && v.withinSd !== null ? [v.withinSd] : []));
    return got.length ? `${name} ${pct(got.map((v) => v.betweenSd!))}${within.length ? ` (slices alone: ${pct(within)})` : ''}` : '';
  }).filter(Boolean);
  return parts.length ? `; spread between process pairs (sd of their log ratios): ${parts.join(', ')}` : '';
}

/** The table's precision in one line: the 95% intervals' widths and the MDEs, per quantity, and the process pairs' spread. */
export function precisionLine(cases: readonly CaseVerdicts[]): string {
  const span = (xs: number[]) => (xs.length ? `${(Math.min(...xs) * 100).toFixed(1)}–${(Math.max(...xs) * 100).toFixed(1)} points` : '—');
  return (
    perQuantity(cases, (name, vs) => {
      const got = vs.filter((v): v is Verdicts => v !== null);
      const widths = got.flatMap((v) => (v.ci ? [v.ci.high - v.ci.low] : []));
      const mdes = got.flatMap((v) => (v.mde !== undefined && v.mde !== null ? [v.mde] : []));
      return `${name} interval widths ${span(widths)}, MDE ${span(mdes)}`;
    }).join('; ') + processSpread(cases)
  );
}

export function comparisonMarkdown(reports: readonly ApiReport[]): string {
  const out: string[] = [];
  for (const report of reports) {
    for (const pair of report.pairs) {
      out.push(
        `**${pair.a}** vs **${pair.b}** on **${report.api}**${report.calibration ? ` — A/A calibration run \`${report.calibration.runId}\`: every verdict is a false one` : ''} (verdicts are ${pair.a}'s; ${methodNote(pair.cases, pair.a, pair.b)}, adjusted in brackets; α = ${ALPHA}; MDE: the smallest difference this comparison could have detected, bench/docs/precision.md; CPU: the implementation's µs per request, faster = cheaper)`,
        '',
        '| case | throughput difference [CI] | MDE | p (adj.) | raw | verdict | p95 difference [CI] | MDE | p (adj.) | raw | verdict | CPU µs/req difference [CI] | MDE | p (adj.) | raw | verdict |',
        '| --- | ---: | ---: | ---: | --- | --- | ---: | ---: | ---: | --- | --- | ---: | ---: | ---: | --- | --- |',
        ...pair.cases.map((c) => `| ${c.caseId} | ${[...cells(c.throughput), ...cells(c.p95), ...cells(c.cpu)].join(' | ')} |`),
        '',
        `Family (this table): ${counts(pair.family)}.`,
        `Precision: ${precisionLine(pair.cases)}.`,
      );
      for (const f of typeFamilies(report.requestTypes).filter((t) => t.a === pair.a && t.b === pair.b))
        out.push(`Family (per request type, mean and median; \`make report\` shows the table): ${counts(f)}.`);
      out.push('');
    }
    if (report.calibration) out.push(`A/A calibration, all tables: ${counts(report.calibration.counts)}.`, '');
  }
  return out.join('\n');
}
