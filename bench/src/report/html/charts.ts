// The report's figures as Vega-Lite specifications, rendered to SVG at build time
// (vega's headless View, no canvas, no browser), so the HTML needs nothing at view time.
import * as vega from 'vega';
import { compile, type TopLevelSpec } from 'vega-lite';
import { LATENCY_STATS, type CaseGroup, type CaseResult } from '../rows.ts';
import { isDatabaseAlone } from '../../record/result-document.ts';

const MiB = 1024 * 1024;
/** Tableau 10: distinguishable, and colour-blind safer than the defaults of most tools. */
const PALETTE = ['#4e79a7', '#f28e2b', '#59a14f', '#e15759', '#76b7b2', '#edc948', '#b07aa1', '#ff9da7', '#9c755f', '#bab0ac'];
const LIMIT_LABEL = 'database alone';
/** Points per plotted series over time: enough for the shape, small enough for the file. */
const MAX_POINTS = 200;

/** What the parameters mean, for axis titles; unknown ones are shown by name. */
const PARAMETER_TITLES: Record<string, string> = {
  concurrency: 'concurrency (virtual users)',
  rate: 'arrival rate (req/s)',
  rows: 'rows',
  joins: 'joins',
};

const CONFIG = {
  font: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
  axis: { labelFontSize: 11, titleFontSize: 12, titleFontWeight: 'normal', labelOverlap: true, gridColor: '#e6e6e6' },
  header: { labelFontSize: 12, titleFontSize: 12 },
  legend: { labelFontSize: 12, titleFontSize: 12, orient: 'top' },
  view: { stroke: '#ccc' },
} as const;

/** Each implementation keeps its colour across the report; a chart's legend lists only those in it. */
export function implColors(impls: string[], present: string[] = impls): { domain: string[]; range: string[] } {
  const shown = impls.filter((i) => present.includes(i));
  return { domain: shown, range: shown.map((i) => PALETTE[impls.indexOf(i) % PALETTE.length]!) };
}

const presentIn = (group: CaseGroup) => [...new Set(group.rows.flatMap((row) => row.results.map((r) => r.impl)))];

export async function renderSvg(spec: TopLevelSpec): Promise<string> {
  const view = new vega.View(vega.parse(compile({ ...spec, config: { ...CONFIG, ...(spec.config ?? {}) } } as TopLevelSpec).spec), { renderer: 'none' });
  try {
    const svg = await view.toSVG();
    // Scale to the page width on narrow screens, keeping the aspect ratio.
    return svg.replace('<svg ', '<svg style="max-width:100%;height:auto" role="img" ');
  } finally {
    view.finalize();
  }
}

/** The first parameter goes on the x axis; the others split the panels ("rows 1 · joins 0"). */
export function splitParameters(parameters: Record<string, unknown>): { xKey: string; x: string; panel: string } {
  const [xKey = '', ...rest] = Object.keys(parameters);
  return { xKey, x: String(parameters[xKey] ?? ''), panel: rest.map((k) => `${k} ${String(parameters[k])}`).join(' · ') || 'all' };
}

export function caseLabel(parameters: Record<string, unknown>): string {
  return Object.entries(parameters)
    .map(([k, v]) => `${k} ${String(v)}`)
    .join(' · ');
}

/** Up to 4 panels a row, preferring full rows (6 panels: 3 + 3, not 4 + 2). */
function columnsFor(panels: number): number {
  if (panels <= 4) return panels;
  return [4, 3].find((c) => panels % c === 0) ?? 4;
}

const unique = <T>(xs: T[]) => [...new Set(xs)];

/** Throughput per case: bars of the median with its 95% interval, the database alone as a tick. */
/**
 * What the faceted bar charts share (throughput, CPU per request): a panel per case family,
 * the case parameter on x, one bar per implementation side by side.
 */
function groupedBars(group: CaseGroup, impls: string[], values: readonly { x: string; panel: string }[]) {
  const { xKey } = splitParameters(group.rows[0]!.parameters);
  const panels = unique(values.map((v) => v.panel));
  const colors = implColors(impls, presentIn(group));
  return {
    frame: {
      $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
      data: { values },
      facet: { field: 'panel', type: 'nominal', sort: panels, title: null },
      columns: columnsFor(panels.length),
    },
    x: { field: 'x', type: 'ordinal', sort: unique(values.map((v) => v.x)), title: PARAMETER_TITLES[xKey] ?? xKey, axis: { labelAngle: 0 } },
    xOffset: { field: 'impl', sort: colors.domain, scale: { paddingInner: 0.1 } },
    colors,
    // With an offset channel the step is one bar's width.
    width: { step: colors.domain.length <= 2 ? 34 : colors.domain.length === 3 ? 26 : 20 } as never,
  } as const;
}

export function throughputSpec(group: CaseGroup, impls: string[]): TopLevelSpec {
  const values = group.rows.flatMap((row) =>
    row.results.map((r) => {
      const { x, panel } = splitParameters(row.parameters);
      return {
        x,
        panel,
        impl: r.impl,
        median: r.throughput.median,
        low: r.throughput.ci?.low ?? null,
        high: r.throughput.ci?.high ?? null,
        limit: r.baseline?.throughput.median ?? null,
      };
    }),
  );
  const { frame, x, xOffset, colors, width } = groupedBars(group, impls, values);
  const hasLimit = values.some((v) => v.limit !== null);
  return {
    ...frame,
    spec: {
      width,
      height: 200,
      layer: [
        {
          mark: { type: 'bar' },
          encoding: {
            x,
            xOffset,
            y: { field: 'median', type: 'quantitative', title: 'throughput (req/s)', axis: { format: ',~f' }, scale: { zero: true, nice: 5 } },
            color: {
              field: 'impl',
              type: 'nominal',
              scale: hasLimit ? { domain: [...colors.domain, LIMIT_LABEL], range: [...colors.range, '#222'] } : colors,
              legend: { title: null, symbolType: 'square' },
            },
          },
        },
        {
          mark: { type: 'rule', color: '#222', strokeWidth: 1.5 },
          transform: [{ filter: 'datum.low != null' }],
          encoding: { x, xOffset, y: { field: 'low', type: 'quantitative' }, y2: { field: 'high' } },
        },
        {
          mark: { type: 'tick', thickness: 2.5 },
          transform: [{ filter: 'datum.limit != null' }],
          encoding: { x, xOffset, y: { field: 'limit', type: 'quantitative' }, color: { datum: LIMIT_LABEL } },
        },
      ],
    },
    // Own y scales: 1 row and 100 rows differ tenfold. Own x axes: a wrapped last row keeps its axis.
    resolve: { scale: { y: 'independent' }, axis: { x: 'independent' } },
  } as TopLevelSpec;
}

/** Latency per case and implementation: min–max as a line, the median, mean, p95 and p99 as marks, log scale. */
export function latencySpec(group: CaseGroup, impls: string[]): TopLevelSpec {
  const values = group.rows.flatMap((row) => row.results.map((r) => ({ case: caseLabel(row.parameters), impl: r.impl, ...r.latency })));
  const colors = implColors(impls, presentIn(group));
  const y = { field: 'case', type: 'nominal', sort: unique(values.map((v) => v.case)), title: null, axis: { labelLimit: 400, labelFontSize: 12 } } as const;
  const yOffset = { field: 'impl', sort: colors.domain } as const;
  const color = { field: 'impl', type: 'nominal', scale: colors, legend: { title: null, symbolType: 'stroke', symbolStrokeWidth: 3 } } as const;
  const xScale = { type: 'log' } as const;
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    data: { values },
    width: 760,
    // The step is one implementation's row within a case.
    height: { step: 12 } as never,
    layer: [
      {
        mark: { type: 'rule', strokeWidth: 1.5 },
        encoding: {
          y,
          yOffset,
          color,
          x: {
            field: 'min',
            type: 'quantitative',
            scale: xScale,
            title: 'latency (ms, log scale): line from min to max; marks for median, mean, p95, p99',
            axis: { format: '~g' },
          },
          x2: { field: 'max' },
        },
      },
      {
        transform: [{ fold: LATENCY_STATS.filter((s) => s !== 'min' && s !== 'max'), as: ['statistic', 'ms'] }],
        mark: { type: 'point', filled: true, size: 38, opacity: 1, stroke: '#222', strokeWidth: 0.5 },
        encoding: {
          y,
          yOffset,
          color: { ...color, legend: null },
          x: { field: 'ms', type: 'quantitative', scale: xScale },
          shape: {
            field: 'statistic',
            type: 'nominal',
            sort: ['median', 'mean', 'p95', 'p99'],
            scale: { domain: ['median', 'mean', 'p95', 'p99'], range: ['circle', 'diamond', 'triangle-up', 'square'] },
            legend: { title: null },
          },
        },
      },
    ],
    resolve: { legend: { color: 'independent', shape: 'independent' } },
  } as TopLevelSpec;
}

function thin<T>(xs: T[]): T[] {
  if (xs.length <= MAX_POINTS) return xs;
  const step = xs.length / MAX_POINTS;
  return Array.from({ length: MAX_POINTS }, (_, i) => xs[Math.floor(i * step)]!);
}

/** The server's CPU% or RSS over the measured window of each case's representative repetition. */
export function usageSpec(group: CaseGroup, impls: string[], what: 'cpu' | 'rss'): TopLevelSpec | null {
  const values = group.rows.flatMap((row) =>
    row.results.flatMap((r: CaseResult) =>
      thin(r.representative.server?.samples ?? []).map(([t, cpu, rss]) => ({
        case: caseLabel(row.parameters),
        impl: r.impl,
        t,
        v: what === 'cpu' ? cpu : rss / MiB,
      })),
    ),
  );
  if (values.length === 0 || isDatabaseAlone(group.protocol)) return null;
  const cases = unique(values.map((v) => v.case));
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    data: { values },
    facet: { field: 'case', type: 'nominal', sort: cases, title: null, header: { labelFontSize: 11 } },
    columns: columnsFor(cases.length),
    spec: {
      width: columnsFor(cases.length) >= 4 ? 240 : 330,
      height: 110,
      mark: { type: 'line', strokeWidth: 1.25, interpolate: 'linear' },
      encoding: {
        x: { field: 't', type: 'quantitative', title: 'time in the measured window (s)' },
        y:
          what === 'cpu'
            ? { field: 'v', type: 'quantitative', title: 'server CPU (%)', scale: { domainMin: 0 } }
            : { field: 'v', type: 'quantitative', title: 'server RSS (MiB)', scale: { zero: false } },
        color: { field: 'impl', type: 'nominal', scale: implColors(impls, presentIn(group)), legend: { title: null, symbolType: 'stroke' } },
      },
    },
    resolve: { axis: { x: 'independent' } },
  } as TopLevelSpec;
}

/**
 * Latency over the first seconds of each case's first load (a freshly started
 * implementation's: its first warm-up iteration, or else its first repetition), warm-up included: median and p95 per second, a rule where
 * the measured window begins. Null when no repetition recorded a timeline.
 */
export function timelineSpec(group: CaseGroup, impls: string[]): TopLevelSpec | null {
  if (isDatabaseAlone(group.protocol)) return null;
  const values = group.rows.flatMap((row) =>
    row.results.flatMap((r: CaseResult) => {
      // The first load: the first warm-up iteration where the case had them.
      const first = r.case.warmup?.iterations[0] ?? r.case.repetitions.find((rep) => rep.index === 1) ?? r.case.repetitions[0];
      const warmup = first?.warmupSeconds ?? r.run.options.warmupSeconds;
      return (first?.timeline ?? []).flatMap((p) => [
        { case: caseLabel(row.parameters), impl: r.impl, second: p.second, statistic: 'median', ms: p.p50Ms, warmup },
        { case: caseLabel(row.parameters), impl: r.impl, second: p.second, statistic: 'p95', ms: p.p95Ms, warmup },
      ]);
    }),
  );
  if (values.length === 0) return null;
  const cases = unique(values.map((v) => v.case));
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    data: { values },
    facet: { field: 'case', type: 'nominal', sort: cases, title: null, header: { labelFontSize: 11 } },
    columns: columnsFor(cases.length),
    spec: {
      width: columnsFor(cases.length) >= 4 ? 240 : 330,
      height: 130,
      layer: [
        {
          mark: { type: 'line', strokeWidth: 1.5, interpolate: 'linear' },
          encoding: {
            x: { field: 'second', type: 'quantitative', title: 'second since the load began (warm-up included)', axis: { format: 'd', tickMinStep: 1 } },
            y: { field: 'ms', type: 'quantitative', title: 'latency (ms, log scale)', scale: { type: 'log' }, axis: { format: '~g' } },
            color: { field: 'impl', type: 'nominal', scale: implColors(impls, presentIn(group)), legend: { title: null, symbolType: 'stroke' } },
            strokeDash: {
              field: 'statistic',
              type: 'nominal',
              sort: ['median', 'p95'],
              scale: {
                domain: ['median', 'p95'],
                range: [
                  [1, 0],
                  [4, 3],
                ],
              },
              legend: { title: null, symbolType: 'stroke', symbolStrokeColor: '#444', symbolStrokeWidth: 2 },
            },
            detail: { field: 'statistic' },
          },
        },
        {
          // Points too: a second alone (its neighbours without a response) is no line.
          mark: { type: 'point', filled: true, size: 10 },
          encoding: { x: { field: 'second', type: 'quantitative' }, y: { field: 'ms', type: 'quantitative' }, color: { field: 'impl', type: 'nominal' } },
        },
        {
          mark: { type: 'rule', color: '#888', strokeDash: [2, 2] },
          encoding: { x: { field: 'warmup', aggregate: 'min', type: 'quantitative' } },
        },
      ],
    },
    resolve: { axis: { x: 'independent' } },
  } as TopLevelSpec;
}

const DATABASE_LABEL = 'database server';

/**
 * CPU per request per case: the implementation's process tree as a bar with its 95%
 * interval, the database server's CPU for the same requests stacked on it in grey, so the
 * bar's height is the server side's whole cost of a request. Null when nothing recorded it.
 */
export function cpuSpec(group: CaseGroup, impls: string[]): TopLevelSpec | null {
  const values = group.rows.flatMap((row) =>
    row.results.flatMap((r) => {
      const server = r.cpuPerRequest.server;
      if (!server) return [];
      const { x, panel } = splitParameters(row.parameters);
      const database = r.cpuPerRequest.database?.median ?? 0;
      return [
        {
          x,
          panel,
          impl: r.impl,
          server: server.median,
          low: server.ci?.low ?? null,
          high: server.ci?.high ?? null,
          total: server.median + database,
          hasDatabase: r.cpuPerRequest.database !== null,
        },
      ];
    }),
  );
  if (values.length === 0 || isDatabaseAlone(group.protocol)) return null;
  const { frame, x, xOffset, colors, width } = groupedBars(group, impls, values);
  return {
    ...frame,
    spec: {
      width,
      height: 200,
      layer: [
        {
          mark: { type: 'bar' },
          encoding: {
            x,
            xOffset,
            y: { field: 'server', type: 'quantitative', title: 'CPU per request (µs)', axis: { format: ',~f' }, scale: { zero: true, nice: 5 } },
            color: {
              field: 'impl',
              type: 'nominal',
              scale: { domain: [...colors.domain, DATABASE_LABEL], range: [...colors.range, '#c7c7c7'] },
              legend: { title: null, symbolType: 'square' },
            },
          },
        },
        {
          mark: { type: 'bar' },
          transform: [{ filter: 'datum.hasDatabase' }],
          encoding: { x, xOffset, y: { field: 'server', type: 'quantitative' }, y2: { field: 'total' }, color: { datum: DATABASE_LABEL } },
        },
        {
          mark: { type: 'rule', color: '#222', strokeWidth: 1.5 },
          transform: [{ filter: 'datum.low != null' }],
          encoding: { x, xOffset, y: { field: 'low', type: 'quantitative' }, y2: { field: 'high' } },
        },
      ],
    },
    resolve: { scale: { y: 'independent' }, axis: { x: 'independent' } },
  } as TopLevelSpec;
}
