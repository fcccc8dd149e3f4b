// docs/papers.md: per paper its claims in its words, the paper's figure, ours (the ratio
// with its interval per comparison), the verdicts, the run, the deviations and the
// commands for the runs longer than the page's budget. A function of the claims files and
// the compact results alone, so that `make papers-page` regenerates it byte for byte.
import { ALPHA, CONFIDENCE, MIN_VERDICT_REPETITIONS } from '../../stats/index.ts';
import { pValue } from '../format.ts';
import { METRICS, type PaperClaims, type PaperRatio } from './claims.ts';
import type { CompactResult } from './compact.ts';
import { evaluateClaims, type ClaimReport, type UnitReport } from './evaluate.ts';
import { holds, type ClaimVerdict } from './verdict.ts';

export interface PaperEntry {
  paper: PaperClaims;
  compact: CompactResult | null;
}

const VERDICT_ORDER: readonly ClaimVerdict[] = [
  'reproduced',
  'equivalent',
  'reversed',
  'differs',
  'no difference',
  'mixed',
  'inconclusive',
  'not yet run',
  'cannot check here',
];

/** Three significant digits, thousands separated; "—" for no number (0 / 0). */
function num(x: number): string {
  if (!Number.isFinite(x)) return '—';
  return Math.abs(x) >= 1000 ? x.toLocaleString('en-US', { maximumFractionDigits: 0 }) : Number(x.toPrecision(3)).toString();
}

const ratioText = (r: PaperRatio): string => (typeof r === 'number' ? `×${num(r)}` : `×${num(r[0])}–${num(r[1])}`);

function ours(u: UnitReport): string {
  return `×${num(u.ratio)}${u.ci ? ` [${num(u.ci.low)}, ${num(u.ci.high)}]` : ''}`;
}

/** Per verdict, how many claims have it, in VERDICT_ORDER. */
export function tally(reports: readonly ClaimReport[]): { verdict: ClaimVerdict; count: number }[] {
  return VERDICT_ORDER.map((verdict) => ({ verdict, count: reports.filter((r) => r.verdict === verdict).length })).filter((t) => t.count > 0);
}

const tallyText = (reports: readonly ClaimReport[]) =>
  tally(reports)
    .map((t) => `${t.count} ${t.verdict}`)
    .join(', ');

/** The README's line: how many claims the runs so far bear out. */
export function summaryLine(entries: readonly PaperEntry[]): string {
  const reports = entries.flatMap((e) => evaluateClaims(e.paper, e.compact));
  const held = reports.filter((r) => holds(r.verdict)).length;
  const run = entries.filter((e) => e.compact).length;
  return `${reports.length} claims of ${entries.length} papers; ${run === 0 ? 'none run here yet, so none reproduced so far' : `${run} of ${entries.length} papers run here: ${held} of the claims reproduced or equivalent`} (${tallyText(reports)}).`;
}

/** A comparison's name on the page: its case, and its request type if it has one. */
const unitLabel = (u: UnitReport): string => `\`${u.case}\`${u.requestType ? ` ${u.requestType}` : ''}`;

/**
 * Where k6 was at its ceiling, that side's figure is partly k6's: a faster side's advantage is
 * understated there, and an equal result may hide one (bench/README.md, "What k6 checks").
 */
function boundNote(u: UnitReport, pair: readonly [string, string]): string {
  const sides = pair.flatMap((label, i) => (u.bound![i]! > 0 ? [`${u.bound![i]} of ${label}'s ${u.n[i]}`] : []));
  return `- ${unitLabel(u)}: k6 was generator-bound in ${sides.join(' and ')} repetitions, so the figure there is partly the load generator's.`;
}

function claimSection(r: ClaimReport): string {
  const c = r.claim;
  const metric = METRICS[c.metric];
  const unit = metric.unit ? ` (${metric.unit})` : '';
  const expect = 'better' in c.expect ? `${c.expect.better} better` : `equal: our ratio's interval within ×${num(c.expect.equal[0])}–${num(c.expect.equal[1])}`;
  const lines = [
    `#### \`${c.id}\`: **${r.verdict}**`,
    '',
    `> ${c.words}`,
    '',
    `${c.where}. Metric: ${metric.label}${unit}, ${r.pair[0]} / ${r.pair[1]}; cases \`${c.cases}\`${c.requestTypes ? `, request types ${c.requestTypes.join(', ')}` : ''}.`,
    `The paper: ${c.paperFigure}${c.expect.ratio !== undefined ? ` (${ratioText(c.expect.ratio)})` : ''}; ${expect}.`,
  ];
  if (r.reason) lines.push(`Ours: ${r.reason}.`);
  if (r.units.length) {
    const head = `| case | ${r.pair[0]}${unit} | ${r.pair[1]}${unit} | ratio [${CONFIDENCE * 100}% CI] | p (adjusted) | verdict |`;
    const rows = r.units.map(
      (u) =>
        `| ${unitLabel(u)} | ${num(u.medians[0])} (n=${u.n[0]}) | ${num(u.medians[1])} (n=${u.n[1]}) | ${ours(u)} | ${pValue(u.p)} (${pValue(u.pAdjusted)}) | ${u.verdict} |`,
    );
    lines.push('', head, '| --- | --- | --- | --- | --- | --- |', ...rows);
    const bound = r.units.flatMap((u) => (u.bound ? [boundNote(u, r.pair)] : []));
    if (bound.length) lines.push('', ...bound);
  }
  return lines.join('\n');
}

function runSection(e: PaperEntry): string {
  const run = e.paper.claims.run;
  const c = e.compact;
  const lines = [`The paper's set-up: ${run.paperRuntimes}.`, ''];
  if (!c) {
    lines.push(
      `**Not yet run here.** \`make papers\` runs \`make bench IMPL=${run.pair.join(',')} API=${e.paper.api} PROFILE=papers\` and records its compact result in \`docs/papers/${e.paper.api}.json\`.`,
    );
    return lines.join('\n');
  }
  const o = c.options;
  lines.push(
    `Ours: ${c.implementations.map((i) => `${i.label} (${i.framework} on ${i.runtime})`).join(', ')}; ${c.database}; ${c.generator}.`,
    '',
    `Run \`${c.runId}\` (profile ${c.profile ?? 'none'}: ${o.repeat} repetitions × ${o.durationSeconds} s after ${o.warmupSeconds} s of warm-up${o.quick ? ', the quick variants' : ''}), commit \`${c.commit ?? 'unknown'}\`${c.dirty ? ' with uncommitted changes' : ''}, on ${c.machine.cpuModel} (${c.machine.cores} cores, ${num(c.machine.memoryBytes / 2 ** 30)} GiB, Linux ${c.machine.kernel}); spec \`${c.specHash}\`, seed ${c.seed}; inputs \`${c.inputs}\`.`,
  );
  return lines.join('\n');
}

function paperSection(e: PaperEntry, reports: readonly ClaimReport[]): string {
  const p = e.paper;
  const longRuns = p.claims.longRuns ?? [];
  return [
    `<a id="${p.api}"></a>`,
    '',
    `## ${p.api}: ${p.paper.title}`,
    '',
    `${p.paper.authors}. ${p.claims.source}.`,
    '',
    `Claims: ${tallyText(reports)}.`,
    '',
    '### The runs',
    '',
    runSection(e),
    '',
    '### The claims',
    '',
    reports.map(claimSection).join('\n\n'),
    '',
    '### Deviations from the paper',
    '',
    ...p.claims.deviations.map((d) => `- ${d}`),
    ...(longRuns.length ? ['', "### Longer than the page's budget", '', ...longRuns.map((l) => `- ${l.what}: \`${l.command}\` (${l.why}).`)] : []),
  ].join('\n');
}

export function renderPapersPage(entries: readonly PaperEntry[]): string {
  const evaluated = entries.map((e) => ({ e, reports: evaluateClaims(e.paper, e.compact) }));
  const overview = evaluated.map(
    ({ e, reports }) => `| [${e.paper.api}](#${e.paper.api}) | ${e.paper.claims.run.pair.join(' / ')} | ${reports.length} | ${tallyText(reports)} |`,
  );
  return `${[
    "# The papers' claims, checked here",
    '',
    '<!-- Generated by make papers-page from apis/*/bench/claims.yaml and docs/papers/*.json: edit those, not this. -->',
    '',
    `Each API's paper makes claims about its two frameworks; each claim is data in \`apis/<api>/bench/claims.yaml\` (the paper's words, the metric, the pair, the cases, the direction and size the paper reports), checked against our run of the same pair. ${summaryLine(entries)}`,
    '',
    '| paper | pair | claims | verdicts |',
    '| --- | --- | --- | --- |',
    ...overview,
    '',
    `**The verdicts.** A comparison is the first of the pair against the second on the claim's metric, per case (or per request type of a case): the ratio of their medians over the repetitions with its ${CONFIDENCE * 100}% bootstrap interval, and the exact rank test (at least ${MIN_VERDICT_REPETITIONS} repetitions each), its p-values adjusted over the claim's comparisons (Benjamini–Hochberg, α = ${ALPHA}). *reproduced*: significant in the paper's direction; *reversed*: significant the other way; *no difference*: no significant difference; *equivalent* (a claim that the two are equal or close): the ratio's interval lies inside the claim's declared margin; *differs*: such a claim with a significant difference; *inconclusive*: too few repetitions. A claim with several comparisons has the verdict they all share, or *mixed*. *cannot check here* gives its reason.`,
    '',
    `\`make papers\` runs each paper's pair (\`make bench IMPL=<pair> API=<api> PROFILE=papers\`; the cases: the \`papers\` subset of \`apis/<api>/bench/profiles.yaml\`), skips a paper whose compact result \`docs/papers/<api>.json\` was measured from the current inputs, and writes this page. \`make papers-page\` writes it from the committed compact results alone.`,
    '',
    ...evaluated.map(({ e, reports }) => `${paperSection(e, reports)}\n`),
  ]
    .join('\n')
    .trimEnd()}\n`;
}
