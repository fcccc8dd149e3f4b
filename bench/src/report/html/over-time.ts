// What a case records beyond its totals, shown only where its repetitions recorded it (the
// report names no API): Apdex per case and per request type, a stress test's end (time to
// failure or survived to the cap, and the recovery), response time over time, and the
// distribution of each request type's response times as box plots.
import type { TopLevelSpec } from 'vega-lite';
import { median } from '../../stats/index.ts';
import type { Repetition } from '../../record/result-document.ts';
import { caseLabel, implColors, renderSvg } from './charts.ts';
import { ms } from '../format.ts';
import { esc, table } from './html-parts.ts';
import type { CaseGroup, CaseResult } from '../model.ts';

const valid = (r: CaseResult): Repetition[] => r.case.repetitions.filter((rep) => !rep.invalid);
const med = (xs: number[]) => (xs.length ? median(xs) : undefined);
const score = (x: number | undefined) => (x === undefined ? '—' : x.toFixed(2));

/** Apdex per case and implementation: the median score over the repetitions, overall and per request type. */
export function apdexTable(group: CaseGroup): string {
  const results = group.rows.flatMap((row) => row.results.map((r) => ({ row, r })));
  if (!results.some(({ r }) => valid(r).some((rep) => rep.apdex))) return '';
  const types = [...new Set(results.flatMap(({ r }) => valid(r).flatMap((rep) => Object.keys(rep.requestTypes ?? {}))))];
  const first = results.flatMap(({ r }) => valid(r).flatMap((rep) => (rep.apdex ? [rep.apdex] : [])))[0]!;
  const rows = results.map(({ row, r }, i) => [
    i === 0 || results[i - 1]!.row !== row ? esc(caseLabel(row.parameters)) : '',
    esc(r.impl),
    String(valid(r).filter((rep) => rep.apdex).length),
    `<b>${score(med(valid(r).flatMap((rep) => (rep.apdex ? [rep.apdex.score] : []))))}</b>`,
    ...types.map((t) => score(med(valid(r).flatMap((rep) => (rep.requestTypes?.[t]?.apdex ? [rep.requestTypes[t].apdex.score] : []))))),
  ]);
  return `<h4>Apdex</h4>
<p class="note">Apdex with T = ${ms(first.tMs)} ms and F = ${ms(first.fMs)} ms, from the counts of each repetition (not from percentiles): (satisfied + tolerating / 2) / requests, where satisfied = answered correctly within T, tolerating = within F, frustrated = slower or failed. The median over the repetitions; per request type likewise.</p>
<div class="scroll">${table(['case', 'impl', 'reps', 'Apdex', ...types.map(esc)], rows, 2)}</div>`;
}

/** Each repetition's stress outcome: time to failure (or survived to the cap), why, and the recovery. */
export function stressTable(group: CaseGroup): string {
  const rows = group.rows.flatMap((row) =>
    row.results.flatMap((r) =>
      valid(r).flatMap((rep) => {
        const s = rep.stress;
        if (!s) return [];
        const recovery = s.recovery.recovered
          ? `answered after ${s.recovery.seconds ?? 0} s`
          : `<span class="slower">not within ${s.recovery.withinSeconds} s</span>`;
        return [
          [
            esc(caseLabel(row.parameters)),
            esc(r.impl),
            String(rep.index),
            s.failedAfterSeconds === undefined ? `survived (cap ${s.capSeconds} s)` : `<b>${s.failedAfterSeconds} s</b>`,
            `<span style="white-space:normal">${esc(s.reason)}</span>`,
            recovery,
          ],
        ];
      }),
    ),
  );
  if (rows.length === 0) return '';
  const times = (impl: string) =>
    group.rows.flatMap((row) =>
      row.results
        .filter((r) => r.impl === impl)
        .flatMap((r) => valid(r).flatMap((rep) => (rep.stress?.failedAfterSeconds !== undefined ? [rep.stress.failedAfterSeconds] : []))),
    );
  const impls = [...new Set(group.rows.flatMap((row) => row.results.map((r) => r.impl)))];
  const summary = impls
    .map((i) => `${esc(i)}: ${times(i).length ? `median ${median(times(i))} s over ${times(i).length} failing repetition(s)` : 'no repetition failed'}`)
    .join('; ');
  return `<h4>Stress test: time to failure</h4>
<p class="note">From the start of the ramp to the end of the first window that met a stop condition (k6's aborting thresholds judge each window once it is over); "survived" when none did before the cap. Then the load stopped and a login was probed until it answered normally. ${summary}.</p>
${table(['case', 'impl', 'rep', 'time to failure', 'reason', 'recovery'], rows, 2)}`;
}

/** Response time over time: the mean (line) and median (dashed) per window of each case's representative repetition. */
export function overTimeSpec(group: CaseGroup, impls: string[]): TopLevelSpec | null {
  const values = group.rows.flatMap((row) =>
    row.results.flatMap((r) =>
      (r.representative.overTime?.points ?? []).flatMap((p) => [
        { case: caseLabel(row.parameters), impl: r.impl, t: p.fromSeconds, ms: p.latencyMs.mean, statistic: 'mean' },
        { case: caseLabel(row.parameters), impl: r.impl, t: p.fromSeconds, ms: p.latencyMs.median, statistic: 'median' },
      ]),
    ),
  );
  if (values.length === 0) return null;
  const windowSeconds = group.rows.flatMap((row) =>
    row.results.flatMap((r) => (r.representative.overTime ? [r.representative.overTime.windowSeconds] : [])),
  )[0]!;
  const present = [...new Set(values.map((v) => v.impl))];
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    data: { values },
    facet: { field: 'case', type: 'nominal', title: null, header: { labelFontSize: 11 } },
    columns: 2,
    spec: {
      width: 520,
      height: 180,
      mark: { type: 'line', strokeWidth: 1.5, point: { size: 14 } },
      encoding: {
        x: { field: 't', type: 'quantitative', title: `time since the ramp began (s; windows of ${windowSeconds} s)` },
        y: { field: 'ms', type: 'quantitative', title: 'response time (ms, log scale)', scale: { type: 'log' }, axis: { format: '~g' } },
        color: { field: 'impl', type: 'nominal', scale: implColors(impls, present), legend: { title: null, symbolType: 'stroke' } },
        strokeDash: {
          field: 'statistic',
          type: 'nominal',
          scale: {
            domain: ['mean', 'median'],
            range: [
              [1, 0],
              [4, 3],
            ],
          },
          legend: {
            title: null,
            symbolType: 'stroke',
            symbolSize: 300,
            encode: { symbols: { update: { stroke: { value: '#444' }, strokeWidth: { value: 2 } } } },
          },
        },
      },
    },
    resolve: { axis: { x: 'independent' } },
  } as TopLevelSpec;
}

/** Box plots per request type: min–max whiskers, the quartiles' box and the median, of the representative repetition (log scale). */
export function boxPlotSpec(group: CaseGroup, impls: string[]): TopLevelSpec | null {
  const values = group.rows.flatMap((row) =>
    row.results.flatMap((r) =>
      Object.entries(r.representative.requestTypes ?? {}).flatMap(([type, t]) => {
        const l = t.latencyMs;
        return l.p25 === undefined || l.p75 === undefined || t.requests === 0
          ? []
          : [{ case: caseLabel(row.parameters), type, impl: r.impl, min: Math.max(l.min, 0.01), p25: l.p25, median: l.median, p75: l.p75, max: l.max }];
      }),
    ),
  );
  if (values.length === 0) return null;
  const colors = implColors(impls, [...new Set(values.map((v) => v.impl))]);
  // Horizontal: the request types' names read along the y axis, however many there are.
  const y = {
    field: 'type',
    type: 'nominal',
    title: null,
    sort: [...new Set(values.map((v) => v.type))],
    axis: { labelLimit: 300, labelFontSize: 12 },
  } as const;
  const yOffset = { field: 'impl', sort: colors.domain } as const;
  const color = { field: 'impl', type: 'nominal', scale: colors, legend: { title: null } } as const;
  const x = (field: string) =>
    ({
      field,
      type: 'quantitative',
      scale: { type: 'log' },
      title: 'response time (ms, log scale): line from the fastest to the slowest, box from the first to the third quartile, tick at the median',
      axis: { format: '~g' },
    }) as const;
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    data: { values },
    facet: { field: 'case', type: 'nominal', title: null, header: { labelFontSize: 11 } },
    columns: 1,
    spec: {
      width: 760,
      height: { step: 14 } as never,
      layer: [
        { mark: { type: 'rule' }, encoding: { y, yOffset, color, x: x('min'), x2: { field: 'max' } } },
        { mark: { type: 'bar', size: 10, stroke: '#222', strokeWidth: 0.5 }, encoding: { y, yOffset, color, x: x('p25'), x2: { field: 'p75' } } },
        { mark: { type: 'tick', color: '#222', size: 10, thickness: 2 }, encoding: { y, yOffset, x: x('median') } },
      ],
    },
  } as TopLevelSpec;
}

/** The section's parts for one group, each only where the repetitions recorded what it shows. */
export async function overTimeParts(group: CaseGroup, impls: string[]): Promise<string> {
  const overTime = overTimeSpec(group, impls);
  const boxes = boxPlotSpec(group, impls);
  return [
    apdexTable(group),
    stressTable(group),
    overTime
      ? `<h4>Response time over time</h4>
<figure>${await renderSvg(overTime)}<figcaption>The mean (solid) and median (dashed) response time of the requests sent in each window after the ramp began, in the repetition closest to the median throughput.</figcaption></figure>`
      : '',
    boxes
      ? `<h4>Response time per request type</h4>
<figure>${await renderSvg(boxes)}<figcaption>Per request type, in the repetition closest to the median throughput: the box from the first to the third quartile, the dark tick the median, the line from the fastest to the slowest request (k6's percentiles of every request of the measured window).</figcaption></figure>`
      : '',
  ].join('\n');
}
