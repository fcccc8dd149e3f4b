// docs/papers.md: per paper its findings — each a claim checked here or a finding not
// checked, with the reason — the claims in the paper's words with the paper's figure and
// ours (each comparison's interval against ×1 and the paper's ratio), the verdicts by the
// rule the page states, the run and its conditions, the regime, the deviations and the
// commands for the runs longer than the page's budget. A function of the claims files and
// the compact results alone, so that `make papers-page` regenerates it byte for byte.
import { ALPHA, CONFIDENCE, MIN_VERDICT_REPETITIONS } from '../../stats/index.ts';
import type { PaperClaims } from './claims.ts';
import { claimSection, paperEffect } from './claim-section.ts';
import type { CompactResult } from './compact.ts';
import { regimeSection, runSection } from './conditions.ts';
import { evaluateClaims, type ClaimReport } from './evaluate.ts';
import { holds, isDecided, type ClaimVerdict } from './verdict.ts';

export interface PaperEntry {
  paper: PaperClaims;
  compact: CompactResult | null;
}

const VERDICT_ORDER: readonly ClaimVerdict[] = [
  'reproduced',
  'equivalent',
  'weaker than the paper',
  'reversed',
  'differs',
  'not shown equal',
  "no effect of the paper's size",
  'inconclusive',
  'split',
  'failed here',
  'not yet run',
  'long run, not run here',
  'cannot check here',
];

/** Per verdict, how many claims have it, in VERDICT_ORDER. */
export function tally(reports: readonly ClaimReport[]): { verdict: ClaimVerdict; count: number }[] {
  return VERDICT_ORDER.map((verdict) => ({ verdict, count: reports.filter((r) => r.verdict === verdict).length })).filter((t) => t.count > 0);
}

const tallyText = (reports: readonly ClaimReport[]) =>
  tally(reports)
    .map((t) => `${t.count} ${t.verdict}`)
    .join(', ');

const notCheckedOf = (p: PaperClaims) => p.claims.notChecked ?? [];

/** Findings = claims + not checked, as the page counts them. */
const findingsText = (p: PaperClaims): string =>
  `${p.claims.claims.length + notCheckedOf(p).length} (${p.claims.claims.length} claims + ${notCheckedOf(p).length} not checked)`;

/** Of the comparisons of claims that state a size (a ratio or a margin), how many are decided. */
export function sizedDecided(reports: readonly ClaimReport[]): { sized: number; decided: number } {
  const units = reports.filter((r) => paperEffect(r) !== null).flatMap((r) => r.units);
  return { sized: units.length, decided: units.filter((u) => isDecided(u.judgement.verdict)).length };
}

const decidedText = (reports: readonly ClaimReport[]): string => {
  const { sized, decided } = sizedDecided(reports);
  return sized ? `; of the ${sized} comparisons of claims that state a size, ${decided} decided` : '';
};

/** The README's line: how many findings, and how many claims the runs so far bear out. */
export function summaryLine(entries: readonly PaperEntry[]): string {
  const reports = entries.flatMap((e) => evaluateClaims(e.paper, e.compact));
  const held = reports.filter((r) => holds(r.verdict)).length;
  const notChecked = entries.reduce((n, e) => n + notCheckedOf(e.paper).length, 0);
  const run = entries.filter((e) => e.compact).length;
  return `${reports.length + notChecked} findings of ${entries.length} papers, ${reports.length} of them claims checked here and ${notChecked} not checked; ${run === 0 ? 'none run here yet, so none reproduced so far' : `${run} of ${entries.length} papers run here: ${held} of the claims reproduced or equivalent`} (${tallyText(reports)})${decidedText(reports)}.`;
}

function notCheckedSection(p: PaperClaims): string[] {
  const list = notCheckedOf(p);
  if (list.length === 0) return [];
  return [
    '',
    '### Findings not checked here',
    '',
    '| finding | where | why not |',
    '| --- | --- | --- |',
    ...list.map((n) => `| ${n.finding} | ${n.where} | ${n.reason} |`),
  ];
}

function paperSection(e: PaperEntry, reports: readonly ClaimReport[]): string {
  const p = e.paper;
  const longRuns = p.claims.longRuns ?? [];
  const regime = regimeSection(p);
  return [
    `<a id="${p.api}"></a>`,
    '',
    `## ${p.api}: ${p.paper.title}`,
    '',
    `${p.paper.authors}. ${p.claims.source}.`,
    '',
    `Findings: ${findingsText(p)}. Claims: ${tallyText(reports)}${decidedText(reports)}.`,
    '',
    '### The run and its conditions',
    '',
    runSection(p, e.compact),
    ...(regime.length ? ['', ...regime] : []),
    '',
    '### The claims',
    '',
    reports.map((r) => claimSection(p, r)).join('\n\n'),
    ...notCheckedSection(p),
    '',
    '### Deviations from the paper',
    '',
    ...p.claims.deviations.map((d) => `- ${d}`),
    ...(longRuns.length ? ['', "### Longer than the page's budget", '', ...longRuns.map((l) => `- ${l.what}: \`${l.command}\` (${l.why}).`)] : []),
  ].join('\n');
}

/** How a verdict is reached: stated once on the page, in the order the rules apply. */
const RULES = [
  `**The verdicts.** A comparison is the first of the pair against the second on the claim's metric, per case (or per request type of a case): the ratio of their medians with its ${CONFIDENCE * 100}% interval, its detectable difference (the smallest the comparison would have found in 80% of runs, from its own spread), and a test. Where the run started the pair several times per case (process pairs), the unit is the pair of processes: one figure per pair (the Hodges–Lehmann estimate of its slices' or repetitions' log ratios), Student's t interval and test over the pairs; otherwise the medians over the repetitions, the bootstrap interval and the exact rank test (at least ${MIN_VERDICT_REPETITIONS} repetitions each). The p-values are adjusted over the claim's comparisons (Benjamini–Hochberg, α = ${ALPHA}). *Significant* means the adjusted test declares a difference and the interval excludes ×1. The interval is then placed against both ×1 and the paper's own ratio:`,
  '',
  "- *reproduced*: significant in the paper's direction, and the interval holds the paper's ratio or lies beyond it;",
  "- *weaker than the paper*: significant in the paper's direction, the paper's ratio excluded;",
  '- *reversed*: significant the other way;',
  "- *no effect of the paper's size*: not significant, and the interval excludes the paper's ratio;",
  "- *inconclusive*: the interval holds both ×1 and the paper's ratio, or too few repetitions to test. The note under the table gives its width against the paper's effect and whether the run reached a detectable difference of half that effect; where the budget could not, it says what deciding would take;",
  "- a claim of equality: *equivalent* (the interval inside the claim's margin), *differs* (significant, the interval outside the margin), *not shown equal* (neither);",
  '- *direction only*: the paper gives a direction without a size (the claim says why): significant in its direction is *reproduced (direction only)*, anything short of that *inconclusive (direction only)*;',
  "- *generator-bound*: where k6 was at its ceiling in any repetition of a side, that side's figure understates it, so its interval is opened without limit in that side's favour. Where this changes the verdict — the side that measured worse was bound, or an equality — the comparison is *inconclusive (generator-bound)*; where it does not, a reproduced, reversed or differing verdict holds *at least* (the better side's advantage is understated).",
  '',
  "A claim takes the verdict all its comparisons share, with their count; where they differ it is *split*, and the counts beside it say how (a paper's claim covers all its cases, so no comparison is dropped). *failed here*: the run measured the claim's cases and a side gave no figure (its case failed, or the server failed every repetition: a figure of a failing server is none), with each reason; *not yet run*: no figures for the claim as encoded now; *long run, not run here*: the papers profile leaves its cases out for its time budget, and the command under the paper's long runs measures them; *cannot check here* gives its reason. A paper's findings are its claims and the quantitative findings of its results and conclusions not checked here, each with the reason.",
];

export function renderPapersPage(entries: readonly PaperEntry[]): string {
  const evaluated = entries.map((e) => ({ e, reports: evaluateClaims(e.paper, e.compact) }));
  const overview = evaluated.map(
    ({ e, reports }) => `| [${e.paper.api}](#${e.paper.api}) | ${e.paper.claims.run.pair.join(' / ')} | ${findingsText(e.paper)} | ${tallyText(reports)} |`,
  );
  return `${[
    "# The papers' claims, checked here",
    '',
    '<!-- Generated by make papers-page from apis/*/bench/claims.yaml and docs/papers/*.json: edit those, not this. -->',
    '',
    `Each API's paper makes claims about its two frameworks; each claim is data in \`apis/<api>/bench/claims.yaml\` (the paper's words, the metric, the pair, the cases, the direction and size the paper reports), checked against our run of the same pair. ${summaryLine(entries)}`,
    '',
    "Here one 2-core machine holds everything: by default the implementation and its database share one core and k6 has the other. Each paper's section states its own set-up against ours, the run's conditions and how its load's regime differs from the paper's: read them before any figure.",
    '',
    '| paper | pair | findings | claims\u2019 verdicts |',
    '| --- | --- | --- | --- |',
    ...overview,
    '',
    ...RULES,
    '',
    `\`make papers\` runs each paper's pair (\`make bench IMPL=<pair> API=<api> PROFILE=papers\`; the cases: the \`papers\` subset of \`apis/<api>/bench/profiles.yaml\`), skips a paper whose compact result \`docs/papers/<api>.json\` was measured from the current inputs, and writes this page. \`make papers-page\` writes it from the committed compact results alone. Each claim ends with the command that measures it again.`,
    '',
    ...evaluated.map(({ e, reports }) => `${paperSection(e, reports)}\n`),
  ]
    .join('\n')
    .trimEnd()}\n`;
}
