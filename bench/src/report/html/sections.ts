// Two sections of the report page: the cases runs recorded as failed, and the figures per
// request type with each pair's verdicts.
import { CONFIDENCE } from '../../stats/index.ts';
import { caseLabel } from './charts.ts';
import { interval, ms, rate, relative } from '../format.ts';
import type { ApiReport } from '../model.ts';
import { esc, table } from './html-parts.ts';
import { familyNote, VERDICT_HEADS, verdictCells } from './pair-table.ts';
import { isDatabaseAlone, tierOf } from '../../record/result-document.ts';
import { typeFamilies, type TypeRow } from '../request-types.ts';
/** The cases runs recorded as failed: why, and what was measured before (not used anywhere else on the page). */
export function failureSection(report: ApiReport): string {
  const rows = report.failures.map((f) => [
    `<code>${esc(f.case.id)}</code>`,
    isDatabaseAlone(f.case.protocol) ? `database alone (${tierOf(f.case)})` : esc(f.impl),
    `<code>${esc(f.runId)}</code>`,
    `<span class="slower">${esc(f.failure.kind)}</span>`,
    f.failure.repetition ? String(f.failure.repetition) : 'before the first',
    `<span style="white-space:normal">${esc(f.failure.reason)}</span>`,
    f.measured
      ? `${f.measured.n}${f.case.repetitions.at(-1)?.partial ? ' (last partial)' : ''}: ${rate(f.measured.throughput)} req/s, p95 ${ms(f.measured.p95)} ms`
      : 'nothing',
  ]);
  return `<h3 id="${esc(report.id)}-failed">Failed cases</h3>
<p class="note">These cases did not complete: the run recorded why and went on. They are left out of every table, chart and comparison on this page (an older run's measurement of the same case is shown instead, if there is one); what their repetitions measured before the failure is summarised here.</p>
${table(['case', 'implementation', 'run', 'failure', 'in repetition', 'reason', 'measured before it (median)'], rows, 3)}`;
}

export function requestTypeSection(report: ApiReport): string {
  const label = (r: TypeRow) => `${esc(r.protocol)}/${esc(r.model)} · ${esc(caseLabel(r.parameters))}`;
  const rows = report.requestTypes.flatMap((row) =>
    row.results.map((r, i) => [
      i === 0 ? label(row) : '',
      i === 0 ? `<b>${esc(row.type)}</b>` : '',
      esc(r.impl),
      String(r.n),
      `<b>${ms(r.mean.median)}</b> <small>${interval(r.mean.ci, ms)}</small>`,
      `${ms(r.meanOfMeans)} ± ${ms(r.meanSd)}`,
      r.requestSd === null ? '—' : ms(r.requestSd),
      `${ms(r.median.median)} <small>${interval(r.median.ci, ms)}</small>`,
      ms(r.p95),
      ms(r.p99),
      rate(r.throughput),
      r.serverMean === null ? '—' : ms(r.serverMean),
      r.serverMean === null ? '—' : ms(Math.max(0, r.mean.median - r.serverMean)),
      i === 0 && row.baseline
        ? `${ms(row.baseline.mean.median)}${
            Object.keys(row.baseline.parts).length
              ? ` <small>(${Object.entries(row.baseline.parts)
                  .map(([p, v]) => `${esc(p)} ${ms(v)}`)
                  .join(', ')})</small>`
              : ''
          }`
        : i === 0
          ? '—'
          : '',
      r.errors ? `<span class="slower">${r.errors}</span>` : '0',
    ]),
  );
  const pairs = report.requestTypes.flatMap((row) =>
    row.comparisons.map((c) => [
      label(row),
      esc(row.type),
      `${esc(c.a)} / ${esc(c.b)}`,
      `${ms(c.mean.medianA)} / ${ms(c.mean.medianB)}`,
      `${relative(c.mean.ratio)} <small>${interval(c.mean.ci, relative)}</small>`,
      ...verdictCells(c.mean),
      `${relative(c.median.ratio)} <small>${interval(c.median.ci, relative)}</small>`,
      ...verdictCells(c.median),
    ]),
  );
  return `<h3>Per request type</h3>
<p class="note">Milliseconds. <b>mean</b>: the median over the repetitions of each repetition's mean time of that request type (the papers' figure), with its ${CONFIDENCE * 100}% bootstrap interval; <b>mean of means ± sd</b>: the papers' way (the average of the repetitions' means) and the spread of the repetitions' means; <b>sd per request</b>: the spread of the requests' times within a repetition (Bombardier's "Stdev"), the median over the repetitions; median, p95, p99 and req/s likewise medians over the repetitions. <b>server</b>: the implementation's own time (Server-Timing app;dur=, framework entry to response written); <b>network + client</b>: mean − server. <b>database alone</b>: the same operations through the MongoDB driver, with their parts (bcrypt, database).</p>
${table(['case', 'request type', 'impl', 'reps', 'mean [CI]', 'mean of means ± sd', 'sd per request', 'median [CI]', 'p95', 'p99', 'req/s', 'server', 'network + client', 'database alone', 'errors'], rows, 3)}
${
  pairs.length
    ? `<h4>Per request type: comparisons</h4>
<p class="note">The first implementation's time over the second's − 1 (negative = the first is faster), for the mean and the median per request type, with the ${CONFIDENCE * 100}% bootstrap interval; verdicts are the first's, from the exact Mann–Whitney test (p, in brackets adjusted). ${typeFamilies(
        report.requestTypes,
      )
        .map((f) => `${esc(f.a)} vs ${esc(f.b)}: ${familyNote(f, 'the mean and median of every row of this pair')}`)
        .join(' ')}</p>
${table(['case', 'request type', 'pair', 'mean ms', 'mean difference [CI]', ...VERDICT_HEADS, 'median difference [CI]', ...VERDICT_HEADS], pairs, 3, 'cmp types')}`
    : ''
}`;
}
