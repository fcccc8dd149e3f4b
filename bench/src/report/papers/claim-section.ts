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
 * The paper's effect a comparison must resolve: the distance of the paper's nearer ratio from
 * ×1, or for a claim of equality the distance of its margin's nearer end; null without a size.
 */
export function paperEffect(r: ClaimReport): number | null {
  const e = r.claim.expect;
  const range = 'equal' in e ? e.equal : paperRange(e);
  return range ? Math.min(...range.map((x) => Math.abs(x - 1))) : null;
}

/**
 * Why a comparison is undecided (inconclusive, or an equality not shown), in figures: how wide
 * its interval is against the paper's effect, and whether the run's budget reached a
 * detectable difference of half that effect (what deciding would take if not).
 */
function undecidedNote(u: UnitReport, r: ClaimReport): string | null {
  if ((u.judgement.verdict !== 'inconclusive' && u.judgement.verdict !== 'not shown equal') || !u.ci) return null;
  if (u.judgement.qualifier === 'generator-bound')
    return `- ${unitLabel(u)}: inconclusive because k6 was at its ceiling for the side that measured worse, or the bound would change the verdict: that side's true figure may be better than measured.`;
  const effect = paperEffect(r);
  const width = `${percentPoints(u.ci.high - u.ci.low)} points wide`;
  if (effect === null) return `- ${unitLabel(u)}: the interval holds ×1 (${width}); the paper gives no size to weigh it against.`;
  const against = 'equal' in r.claim.expect ? `the margin of ±${percentPoints(effect)}%` : `the paper's effect of ${percentPoints(effect)}%`;
  const holds = 'equal' in r.claim.expect ? 'it is neither inside the margin nor a difference beyond it' : "it holds both ×1 and the paper's ratio";
  return `- ${unitLabel(u)}: the interval is ${width} against ${against}: ${holds}.${reach(u, effect)}`;
}

/**
 * Whether the run reached a detectable difference of half the paper's effect and, where it did
 * not, what deciding would take at its own spread: the detectable difference falls with √n,
 * so (MDE / half the effect)² times the process pairs (or repetitions) would bring it there
 * (on the log scale, as the MDE is computed).
 */
function reach(u: UnitReport, effect: number): string {
  if (u.mde === null || !(u.mde > 0) || !(effect > 0)) return '';
  const half = `±${percentPoints(effect / 2)}%`;
  const times = (Math.log1p(u.mde) / Math.log1p(effect / 2)) ** 2;
  if (times <= 1)
    return ` Its detectable difference (±${percentPoints(u.mde)}%) is within half the paper's effect (${half}): the interval fell where it did, not for want of precision.`;
  const [n, unit] = u.processPairs ? [u.processPairs, 'process pairs'] : [Math.min(...u.n), 'repetitions a side'];
  return ` The budget could not reach half the paper's effect (${half}; detectable here ±${percentPoints(u.mde)}%): at its spread, that would take about ${Math.ceil(times)} times its ${n} ${unit} (${Math.ceil(times * n)}).`;
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
    const notes = r.units.flatMap((u) => undecidedNote(u, r) ?? []);
    if (notes.length) lines.push('', ...notes);
  }
  if (!c.cannotCheck) lines.push('', `Measure it again: \`${reproduceCommand(paper, r)}\`.`);
  return lines.join('\n');
}
