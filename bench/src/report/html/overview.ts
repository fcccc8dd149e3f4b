// The report's first screen: per API, the answer — how each implementation fares against
// the database alone and against the others (overview-chart.ts) — then one line linking to
// what it rests on (the method, the runs, the warnings), which the page shows below it.
import { ALPHA, CONFIDENCE, MIN_VERDICT_REPETITIONS } from '../../stats/index.ts';
import type { ApiReport, Mark } from '../model.ts';
import { esc, swatch } from './html-parts.ts';
import { BOUND_MARK, MARK_COLORS, overviewSvg } from './overview-chart.ts';

const MARK_MEANING: Record<Mark, string> = {
  faster: 'faster',
  slower: 'slower',
  'no difference': 'no difference (no significant one)',
  inconclusive: `inconclusive (fewer than ${MIN_VERDICT_REPETITIONS} repetitions a side: no test)`,
};

const legend = (Object.keys(MARK_COLORS) as Mark[]).map((m) => `<b style="color:${MARK_COLORS[m]}">${esc(MARK_MEANING[m])}</b>`).join(', ');

const CAPTION = `Per case: the database alone (the limit: the same queries at the same load, the native client where it ran) and each implementation. Dot: the median over the repetitions; bar: its ${CONFIDENCE * 100}% bootstrap interval; each case has its own scales. Beside each quantity: the difference of the medians (this row over the other, −1) and the verdict of the page's tables below, after the family's adjustment: ${legend}; for p95 latency, lower is faster. ${BOUND_MARK} <i>n</i>/<i>m</i>: the load's client was the bottleneck in <i>n</i> of the <i>m</i> repetitions — k6 for an implementation (generator-bound), the database alone's own client for the limit — so its figures may be the client's rather than the server's; ${BOUND_MARK} beside a verdict: a side of it has such repetitions.`;

/** The section id of a report part below: the method, and per API its runs and warnings. */
export const anchors = {
  method: 'method',
  runs: (r: ApiReport) => `${r.id}-runs`,
  warnings: (r: ApiReport) => `${r.id}-warnings`,
  answer: (r: ApiReport) => `${r.id}-answer`,
};

function heading(r: ApiReport): string {
  const impls = r.impls.map((i) => swatch(i, r.impls)).join(r.impls.length === 2 ? ' vs ' : ', ');
  if (r.calibration) return `${esc(r.api)} — A/A calibration: ${impls}`;
  return `${esc(r.api)}: ${impls}`;
}

function calibrationLine(r: ApiReport): string {
  const c = r.calibration;
  if (!c) return '';
  return `<p class="note"><b>A/A run</b> <code>${esc(c.runId)}</code>: ${esc(c.impl)} against a copy of itself, so every "faster" or "slower" is a false one — here ${c.counts.adjusted} of ${c.counts.tested} after the adjustment (${c.counts.raw} on the raw p-values; a calibrated rule shows any in at most ${ALPHA * 100}% of such runs).</p>`;
}

function linksLine(r: ApiReport): string {
  const runs = r.runs.length;
  const warnings = r.warnings.length;
  return `<p class="below">Below: <a href="#${anchors.method}">the method</a> · <a href="#${esc(anchors.runs(r))}">the ${runs === 1 ? 'run' : `${runs} runs`}</a> · <a href="#${esc(anchors.warnings(r))}">${warnings ? `${warnings} warning${warnings === 1 ? '' : 's'}` : 'no warnings'}</a>${r.failures.length ? ` · <a href="#${esc(r.id)}-failed">${r.failures.length} failed case${r.failures.length === 1 ? '' : 's'}</a>` : ''} · <a href="#${esc(r.id)}">every table and chart of ${esc(r.api)}</a></p>`;
}

/** One API's answer: its heading, the chart (or why there is none) and the links to what it rests on. */
export async function overviewSection(r: ApiReport): Promise<string> {
  const svg = await overviewSvg(r.overview, r.impls);
  return `<section class="answer" id="${esc(anchors.answer(r))}">
<h2>${heading(r)}</h2>
${calibrationLine(r)}
${svg ? `<figure class="answer">${svg}<figcaption>${CAPTION}</figcaption></figure>` : '<p class="note">No served case completed: nothing to compare.</p>'}
${linksLine(r)}
</section>`;
}
