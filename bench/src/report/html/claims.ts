// The report's section on the API's paper: each claim checked against the runs on the page,
// by the same rules as docs/papers.md (report/papers/), one row per comparison.
import { CONFIDENCE } from '../../stats/index.ts';
import { pValue } from '../format.ts';
import { METRICS } from '../papers/claims.ts';
import type { ClaimReport } from '../papers/evaluate.ts';
import { claimHeadline, ratioText } from '../papers/claim-section.ts';
import { judgementText } from '../papers/verdict.ts';
import { esc, table } from './html-parts.ts';

const num = (x: number) => (Number.isFinite(x) ? Number(x.toPrecision(3)).toLocaleString('en-US') : '—');

export function claimsSection(reports: readonly ClaimReport[]): string {
  const rows = reports.flatMap((r) => {
    const c = r.claim;
    const ratio = 'ratio' in c.expect && c.expect.ratio !== undefined ? ` <small>(${ratioText(c.expect.ratio)})</small>` : '';
    const paper = `${esc(c.paperFigure)}${ratio}${'directionOnly' in c.expect ? ' <small>(direction only)</small>' : ''}`;
    const head = [
      `<b>${esc(c.id)}</b><br><small>${esc(c.where)}; ${esc(METRICS[c.metric].label)}, ${esc(r.pair.join(' / '))}</small>`,
      paper,
      esc(claimHeadline(r)).replace(/\*\*(.+?)\*\*/, '<b>$1</b>'),
    ];
    if (!r.units.length) return [[...head, `<small>${esc(r.reason ?? '')}</small>`, '', '', '']];
    return r.units.map((u, i) => [
      ...(i === 0 ? head : ['', '', '']),
      `<code>${esc(u.case)}</code>${u.requestType ? ` ${esc(u.requestType)}` : ''}`,
      `×${num(u.ratio)} <small>${u.ci ? `[${num(u.ci.low)}, ${num(u.ci.high)}]` : ''}</small>`,
      `${pValue(u.p)} <small>(${pValue(u.pAdjusted)})</small>`,
      esc(judgementText(u.judgement)),
    ]);
  });
  return `<h3>The paper's claims beside ours</h3>
<p class="note">Each claim of apis/&lt;api&gt;/bench/claims.yaml against the newest run of its pair on this page (docs/papers.md is the page of every paper's claims): the ratio of the medians, first of the pair over the second, with its ${CONFIDENCE * 100}% bootstrap interval, the rank test's p (adjusted over the claim's comparisons) and the verdict on the claim, placed against both ×1 and the paper's ratio by the rules docs/papers.md states.</p>
${table(['claim', 'the paper', 'verdict', 'case', 'ratio [CI]', 'p (adjusted)', 'comparison'], rows, 4)}`;
}
