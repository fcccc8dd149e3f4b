// One claim on the papers page: the paper's words and figure, what it expects (a size, a
// direction only, or equality within a margin), each comparison's interval beside both ×1
// and the paper's ratio with its detectable difference and its generator-bound repetitions,
// the verdict with its counts, and the command that measures the claim again.
import { CONFIDENCE } from '../../stats/index.ts';
import { pValue } from '../format.ts';
import { METRICS, paperRange, type PaperClaims, type PaperRatio } from './claims.ts';
import type { ClaimReport, UnitReport } from './evaluate.ts';
import { judgementCounts, judgementText } from './verdict.ts';

/** Three significant digits, thousands separated; "—" for no number (0 / 0). */
export function num(x: number): string {
  if (!Number.isFinite(x)) return '—';
  return Math.abs(x) >= 1000 ? x.toLocaleString('en-US', { maximumFractionDigits: 0 }) : Number(x.toPrecision(3)).toString();
}

export const ratioText = (r: PaperRatio): string => (typeof r === 'number' ? `×${num(r)}` : `×${num(r[0])}–${num(r[1])}`);
const percentPoints = (x: number): string => `${Math.round(x * 100)}`;

const ours = (u: UnitReport): string => `×${num(u.ratio)}${u.ci ? ` [${num(u.ci.low)}, ${num(u.ci.high)}]` : ''}`;
const detectable = (u: UnitReport): string => (u.mde === null ? '—' : `±${percentPoints(u.mde)}%`);

/** A comparison's name on the page: its case, and its request type if it has one. */
const unitLabel = (u: UnitReport): string => `\`${u.case}\`${u.requestType ? ` ${u.requestType}` : ''}`;

function boundCell(u: UnitReport, pair: readonly [string, string]): string {
  if (!u.bound) return 'none';
  return pair.map((label, i) => `${label} ${u.bound![i]}/${u.n[i]}`).join(', ');
}

/** The claim's verdict with the counts of its comparisons' verdicts beside it. */
export function claimHeadline(r: ClaimReport): string {
  if (r.units.length === 0) return `**${r.verdict}**`;
  const n = r.units.length;
  return `**${r.verdict}** (${n} comparison${n === 1 ? '' : 's'}: ${judgementCounts(r.units.map((u) => u.judgement))})`;
}

/** What the paper expects, as the page states it. */
function expectation(r: ClaimReport): string {
  const e = r.claim.expect;
  if ('equal' in e) return `the two equal: our interval must lie within ×${num(e.equal[0])}–${num(e.equal[1])}`;
  if ('directionOnly' in e) return `${e.better} better, direction only (${e.directionOnly})`;
  return `${e.better} better by ${ratioText(e.ratio)}`;
}

/**
 * Why a comparison is inconclusive, in figures: how wide its interval is against the
 * paper's effect (the distance of the paper's nearer ratio from ×1).
 */
function inconclusiveNote(u: UnitReport, r: ClaimReport): string | null {
  if (u.judgement.verdict !== 'inconclusive' || !u.ci) return null;
  if (u.judgement.qualifier === 'generator-bound')
    return `- ${unitLabel(u)}: inconclusive because k6 was at its ceiling for the side that measured worse, or the bound would change the verdict: that side's true figure may be better than measured.`;
  const range = paperRange(r.claim.expect);
  const width = `${percentPoints(u.ci.high - u.ci.low)} points wide`;
  if (!range) return `- ${unitLabel(u)}: the interval holds ×1 (${width}); the paper gives no size to weigh it against.`;
  const effect = Math.min(...range.map((x) => Math.abs(x - 1)));
  return `- ${unitLabel(u)}: the interval is ${width} against the paper's effect of ${percentPoints(effect)}%: it holds both ×1 and the paper's ratio.${whatItWouldTake(u, effect)}`;
}

/**
 * What deciding it would take at its own spread: the detectable difference falls with √n, so
 * (MDE / half the effect)² times the repetitions would bring it to half the paper's effect
 * (on the log scale, as the MDE is computed). '' without an MDE, or where it is already there.
 */
function whatItWouldTake(u: UnitReport, effect: number): string {
  if (u.mde === null || !(u.mde > 0) || !(effect > 0)) return '';
  const times = (Math.log1p(u.mde) / Math.log1p(effect / 2)) ** 2;
  const n = Math.min(...u.n);
  if (times <= 1) return '';
  return ` At its spread, deciding it would take about ${Math.ceil(times)} times its ${n} repetitions a side (${Math.ceil(times * n)}), for a detectable difference of half the paper's effect (±${percentPoints(effect / 2)}%, now ±${percentPoints(u.mde)}%).`;
}

/** The command that measures this claim's cases for its pair again. */
function reproduceCommand(paper: PaperClaims, r: ClaimReport): string {
  return `make bench IMPL=${r.pair.join(',')} API=${paper.api} PROFILE=papers CASES='${r.claim.cases}'`;
}

export function claimSection(paper: PaperClaims, r: ClaimReport): string {
  const c = r.claim;
  const metric = METRICS[c.metric];
  const unit = metric.unit ? ` (${metric.unit})` : '';
  const paperRatio = 'ratio' in c.expect && c.expect.ratio !== undefined ? ` (${ratioText(c.expect.ratio)})` : '';
  const lines = [
    `#### \`${c.id}\`: ${claimHeadline(r)}`,
    '',
    `> ${c.words}`,
    '',
    `${c.where}. Metric: ${metric.label}${unit}, ${r.pair[0]} / ${r.pair[1]}; cases \`${c.cases}\`${c.requestTypes ? `, request types ${c.requestTypes.join(', ')}` : ''}.`,
    `The paper: ${c.paperFigure}${paperRatio}; ${expectation(r)}.`,
  ];
  if (r.reason) lines.push(`Ours: ${r.reason}.`);
  if (r.units.length) {
    const head = `| case | ${r.pair[0]}${unit} | ${r.pair[1]}${unit} | ratio [${CONFIDENCE * 100}% CI] | detectable | p (adjusted) | k6 bound | verdict |`;
    const rows = r.units.map(
      (u) =>
        `| ${unitLabel(u)} | ${num(u.medians[0])} (n=${u.n[0]}) | ${num(u.medians[1])} (n=${u.n[1]}) | ${ours(u)} | ${detectable(u)} | ${pValue(u.p)} (${pValue(u.pAdjusted)}) | ${boundCell(u, r.pair)} | ${judgementText(u.judgement)} |`,
    );
    lines.push('', head, '| --- | --- | --- | --- | --- | --- | --- | --- |', ...rows);
    const notes = r.units.flatMap((u) => inconclusiveNote(u, r) ?? []);
    if (notes.length) lines.push('', ...notes);
  }
  if (!c.cannotCheck) lines.push('', `Measure it again: \`${reproduceCommand(paper, r)}\`.`);
  return lines.join('\n');
}
