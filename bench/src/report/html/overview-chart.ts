// The first screen's chart, one per API: a row per case, in it the database alone and each
// implementation; throughput and p95 as the median with its interval, each beside the
// verdicts of that quantity against the database alone and the other implementations.
// Every case has its own scales: one row and a hundred differ tenfold, and a shared axis
// would flatten the intervals the verdicts are about.
import type { TopLevelSpec } from 'vega-lite';
import { ms, rate, relative } from '../format.ts';
import type { Mark, OverviewCase, OverviewSeries, OverviewVerdict } from '../model.ts';
import { caseLabel, implColors, renderSvg } from './charts.ts';
import { PROTOCOL_NAMES } from './html-parts.ts';

/** The verdict marks' colours: the page's .faster, .slower, .nsd and .few. */
export const MARK_COLORS: Record<Mark, string> = { faster: '#1e7b34', slower: '#b3261e', 'no difference': '#555', inconclusive: '#8a6d00' };
export const BOUND_MARK = '⚠';
const LIMIT_COLOR = '#222';
/** The y axis' width, the same in every row so that the rows' plots line up. */
const LABEL_WIDTH = 230;
/** Longer names are cut (with "…") so that a label fits LABEL_WIDTH with its bound mark. */
const NAME_CHARS = 24;
/** One series' band. */
const STEP = 21;
/** Room right of the widest interval for its value's label. */
const HEADROOM = 1.6;
/** Between a row's panels. */
const SPACING = 18;

type Quantity = 'throughput' | 'p95';

/**
 * A series' name on the y axis, with in how many of its repetitions the load's client was the
 * bottleneck: k6 for an implementation, the native or driver client for the database alone.
 */
function seriesLabel(s: OverviewSeries): string {
  const name = s.label.length > NAME_CHARS ? `${s.label.slice(0, NAME_CHARS - 1)}…` : s.label;
  return s.generatorBound ? `${name} ${BOUND_MARK} ${s.generatorBound}/${s.n}` : name;
}

/**
 * The verdict columns: the database alone, then the other implementations — one column
 * "the other" when there are two, else one per implementation (a row's own is empty).
 */
function columnsOf(impls: readonly string[]): { header: string; of: (v: OverviewVerdict) => boolean }[] {
  const limit = { header: 'vs database alone', of: (v: OverviewVerdict) => v.limit };
  if (impls.length === 1) return [limit];
  if (impls.length === 2) return [limit, { header: 'vs the other', of: (v: OverviewVerdict) => !v.limit }];
  return [limit, ...impls.map((impl) => ({ header: `vs ${impl}`, of: (v: OverviewVerdict) => !v.limit && v.against === impl }))];
}

/** A difference short enough for its column: one decimal below ±10% (A/A differences are that small), none above. */
function shortRelative(ratio: number): string {
  const text = relative(ratio);
  return Math.abs(ratio - 1) >= 0.1 ? text.replace(/\.\d%$/, '%') : text;
}

/** "−38% slower": the relative difference and the verdict; only the difference (the colour says the verdict) where columns are many. */
function cellText(v: OverviewVerdict, words: boolean): string {
  return `${shortRelative(v.ratio)}${words ? ` ${v.mark}` : ''}${v.generatorBound ? ` ${BOUND_MARK}` : ''}`;
}

const HEADINGS: Record<Quantity, string> = { throughput: 'throughput (req/s)', p95: 'p95 latency (ms)' };

function valuePanel(c: OverviewCase, what: Quantity, series: { domain: string[]; range: string[] }, width: number, withLabels: boolean, heading: boolean) {
  const values = c.series.map((s) => {
    const e = s[what];
    return {
      series: seriesLabel(s),
      median: e.median,
      low: e.ci?.low ?? null,
      high: e.ci?.high ?? null,
      text: what === 'throughput' ? `${rate(e.median)} req/s` : `${ms(e.median)} ms`,
    };
  });
  const top = Math.max(...values.map((v) => v.high ?? v.median)) * HEADROOM;
  const x = { type: 'quantitative', scale: { domain: [0, top], nice: false } } as const;
  const y = {
    field: 'series',
    type: 'nominal',
    sort: series.domain,
    scale: { domain: series.domain },
    title: null,
    axis: withLabels
      ? {
          // vega measures text by estimate without a canvas, and overestimates: the extent bounds the labels.
          labelLimit: 0,
          minExtent: LABEL_WIDTH,
          maxExtent: LABEL_WIDTH,
          labelFontSize: 12,
          ticks: false,
          domain: false,
          labelColor: { condition: { test: `indexof(datum.label, '${BOUND_MARK}') >= 0`, value: MARK_COLORS.slower }, value: '#1d1d1f' },
        }
      : null,
  } as const;
  const color = { field: 'series', type: 'nominal', scale: series, legend: null } as const;
  return {
    ...(heading ? { title: { text: HEADINGS[what], anchor: 'start', frame: 'group', fontSize: 11, fontWeight: 'normal', color: '#555', offset: 4 } } : {}),
    width,
    height: { step: STEP },
    data: { values },
    layer: [
      {
        mark: { type: 'rule', strokeWidth: 3, opacity: 0.55 },
        transform: [{ filter: 'datum.low != null' }],
        encoding: { y, color, x: { field: 'low', ...x }, x2: { field: 'high' } },
      },
      {
        mark: { type: 'point', filled: true, size: 70, opacity: 1, stroke: '#fff', strokeWidth: 0.8 },
        encoding: {
          y,
          color,
          x: {
            field: 'median',
            ...x,
            title: null,
            axis: { format: '~s', tickCount: 4, labelFontSize: 10, labelColor: '#666', domainColor: '#bbb', tickColor: '#bbb' },
          },
        },
      },
      {
        mark: { type: 'text', align: 'left', dx: 6, fontSize: 12, color: '#333' },
        encoding: { y, x: { field: 'edge', ...x }, text: { field: 'text' } },
        transform: [{ calculate: 'datum.high != null ? datum.high : datum.median', as: 'edge' }],
      },
    ],
  };
}

/** Where columns are few, each says its verdict in words; else its colour alone does (the caption names them). */
const wordsFor = (impls: readonly string[]) => columnsOf(impls).length <= 2;
const columnWidth = (impls: readonly string[]) => (wordsFor(impls) ? 150 : 70);
const plotWidth = (impls: readonly string[]) => (impls.length <= 2 ? 210 : 200);

function verdictPanel(c: OverviewCase, what: Quantity, impls: readonly string[], domain: string[], first: boolean) {
  const columns = columnsOf(impls);
  const words = wordsFor(impls);
  const values = c.series.flatMap((s) =>
    (what === 'throughput' ? s.throughputVerdicts : s.p95Verdicts).flatMap((v) => {
      const column = columns.find((col) => col.of(v));
      return column ? [{ series: seriesLabel(s), column: column.header, text: cellText(v, words), mark: v.mark }] : [];
    }),
  );
  const headers = columns.map((col) => col.header);
  const column = columnWidth(impls);
  // Words from each column's left edge (the band's centre moved back half a column), so that a long cell fills its own column.
  const fromEdge = -column / 2 + 2;
  return {
    width: { step: column },
    height: { step: STEP },
    data: { values },
    mark: { type: 'text', fontSize: 11.5, fontWeight: 600, ...(words ? { align: 'left', dx: fromEdge } : {}) },
    encoding: {
      y: { field: 'series', type: 'nominal', sort: domain, scale: { domain }, axis: null },
      x: {
        field: 'column',
        type: 'nominal',
        sort: headers,
        scale: { domain: headers },
        title: null,
        axis: first
          ? {
              orient: 'top',
              labelAngle: 0,
              labelFontSize: 11,
              labelColor: '#555',
              ticks: false,
              domain: false,
              labelLimit: 0,
              // "vs" over the name where the columns are narrow.
              ...(words
                ? { labelAlign: 'left', labelOffset: fromEdge }
                : { labelExpr: '[slice(datum.label, 0, 2), slice(datum.label, 3)]', labelLineHeight: 13 }),
            }
          : null,
      },
      text: { field: 'text' },
      color: { field: 'mark', type: 'nominal', scale: { domain: Object.keys(MARK_COLORS), range: Object.values(MARK_COLORS) }, legend: null },
    },
  };
}

export function overviewTitle(c: OverviewCase): string {
  return `${PROTOCOL_NAMES[c.protocol] ?? c.protocol} ${c.model} · ${caseLabel(c.parameters)}`;
}

/** Null when the API has no served case. */
export function overviewSpec(cases: readonly OverviewCase[], impls: readonly string[]): TopLevelSpec | null {
  if (cases.length === 0) return null;
  const colors = implColors([...impls]);
  const width = plotWidth(impls);
  const rows = cases.map((c, i) => {
    const labels = c.series.map(seriesLabel);
    const series = {
      domain: labels,
      range: c.series.map((s) => (s.limit ? LIMIT_COLOR : colors.range[colors.domain.indexOf(s.label)]!)),
    };
    const first = i === 0;
    return {
      // From the y labels' edge: the group's bounds move with vega's (overestimated) label widths.
      title: { text: overviewTitle(c), anchor: 'start', frame: 'group', dx: -LABEL_WIDTH, fontSize: 13, fontWeight: 600, offset: 6 },
      hconcat: [
        valuePanel(c, 'throughput', series, width, true, first),
        verdictPanel(c, 'throughput', impls, labels, first),
        valuePanel(c, 'p95', series, width, false, first),
        verdictPanel(c, 'p95', impls, labels, first),
      ],
      spacing: SPACING,
      // Panels placed by their plots alone: an axis label past a plot's end (15k) would shift the next row's panels.
      bounds: 'flush',
      resolve: { scale: { x: 'independent', y: 'shared', color: 'independent' } },
    };
  });
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    vconcat: rows,
    spacing: 14,
    config: { view: { stroke: null }, axis: { grid: false } },
  } as TopLevelSpec;
}

/**
 * The chart as inline SVG, as wide as its content: vega sizes the picture by its estimates of
 * the texts' widths (no canvas here), which are too wide, so that the page would shrink it to
 * fit; its left edge is the labels' room (LABEL_WIDTH), its right the last column's end.
 */
export async function overviewSvg(cases: readonly OverviewCase[], impls: readonly string[]): Promise<string | null> {
  const spec = overviewSpec(cases, impls);
  if (!spec) return null;
  const svg = await renderSvg(spec);
  const origin = /<g [^>]*transform="translate\(([\d.]+),([\d.]+)\)"/.exec(svg);
  const size = /width="(\d+)" height="(\d+)" viewBox="0 0 \d+ \d+"/.exec(svg);
  if (!origin || !size) return svg;
  const left = Math.max(0, Number(origin[1]) - LABEL_WIDTH - 8);
  const content = LABEL_WIDTH + 8 + 2 * plotWidth(impls) + 2 * columnsOf(impls).length * columnWidth(impls) + 3 * SPACING + 8;
  const width = Math.min(Number(size[1]) - left, content);
  return svg.replace(size[0], `width="${width}" height="${size[2]}" viewBox="${left} 0 ${width} ${size[2]}"`);
}
