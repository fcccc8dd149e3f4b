// The comparisons of one run of several implementations (or of an A/A run) as Markdown:
// what the runner prints after the per-implementation tables. The same model as the HTML
// report (buildModel), so the same families, p-values and verdicts.
import { ALPHA } from '../stats/index.ts';
import { pValue, relative } from './format.ts';
import type { ApiReport, FamilyCounts, Verdicts } from './model.ts';
import { typeFamilies } from './request-types.ts';

const cells = (c: Verdicts) => [
  `${relative(c.ratio)}${c.ci ? ` [${relative(c.ci.low)}, ${relative(c.ci.high)}]` : ''}`,
  c.test ? `${pValue(c.test.p)} (${pValue(c.pAdjusted)})` : '—',
  c.rawVerdict,
  `**${c.verdict}**`,
];

const counts = (f: FamilyCounts) => `${f.tested} tested; declared faster or slower: ${f.raw} raw, ${f.adjusted} after the Benjamini–Hochberg adjustment`;

export function comparisonMarkdown(reports: readonly ApiReport[]): string {
  const out: string[] = [];
  for (const report of reports) {
    for (const pair of report.pairs) {
      out.push(
        `**${pair.a}** vs **${pair.b}** on **${report.api}**${report.calibration ? ` — A/A calibration run \`${report.calibration.runId}\`: every verdict is a false one` : ''} (verdicts are ${pair.a}'s; p: exact Mann–Whitney, adjusted in brackets; α = ${ALPHA})`,
        '',
        '| case | throughput difference [CI] | p (adj.) | raw | verdict | p95 difference [CI] | p (adj.) | raw | verdict |',
        '| --- | ---: | ---: | --- | --- | ---: | ---: | --- | --- |',
        ...pair.cases.map((c) => `| ${c.caseId} | ${[...cells(c.throughput), ...cells(c.p95)].join(' | ')} |`),
        '',
        `Family (this table): ${counts(pair.family)}.`,
      );
      for (const f of typeFamilies(report.requestTypes).filter((t) => t.a === pair.a && t.b === pair.b))
        out.push(`Family (per request type, mean and median; \`make report\` shows the table): ${counts(f)}.`);
      out.push('');
    }
    if (report.calibration) out.push(`A/A calibration, all tables: ${counts(report.calibration.counts)}.`, '');
  }
  return out.join('\n');
}
