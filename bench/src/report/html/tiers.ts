// The tiers of the limit on the page: per load point, the native, driver and HTTP tiers'
// throughput and CPU per request (tier-points.ts computes them), so the page shows where the
// time and CPU go between database, driver and framework.
import type { TopLevelSpec } from 'vega-lite';
import { CONFIDENCE, type MedianEstimate } from '../../stats/index.ts';
import { NATIVE_CLIENT_BOUND_CPU_PERCENT } from '../../record/result-document.ts';
import type { TierPoint } from '../tier-points.ts';
import { caseLabel } from './charts.ts';
import { interval, percent, rate, ratioWithInterval, share } from '../format.ts';
import { esc, table } from './html-parts.ts';
import { us } from './cpu.ts';

const estimate = (e: MedianEstimate | null) => (e ? `${us(e.median)}${e.ci ? ` <small>${interval(e.ci, us)}</small>` : ''}` : '—');

export const TIERS_CAPTION = `Per load point, the database alone through a native client that is never the bottleneck (native: sysbench, pgbench, go-tpc or a Go driver, as the API's module declares), the database alone through the implementation language's driver with the implementations' pool (driver), and each implementation over HTTP. Throughput is the median over the repetitions with its ${CONFIDENCE * 100}% bootstrap interval, and its share of the native tier (ratio of medians, resampled). The other tables divide by the native tier, or by the driver's where the API's manifest says its native client leaves out work the implementations must do (users, sports: bcrypt); µs per request are CPU seconds from /proc over completed requests: the database server's, the load's own client's (the native tool, the driver client, or k6) and the implementation's. The client's CPU% is its mean over the window (100 = one core): a native client above ${NATIVE_CLIENT_BOUND_CPU_PERCENT}% is flagged, since it may then be the limit itself.`;

export function tiersTable(points: readonly TierPoint[]): string {
  const rows = points.flatMap((p) =>
    p.entries.map((e, i) => {
      const cpuCell =
        e.clientCpuPercent === null
          ? '—'
          : e.tier === 'native' && e.clientCpuPercent > NATIVE_CLIENT_BOUND_CPU_PERCENT
            ? `<span class="slower">${percent(e.clientCpuPercent)}</span>`
            : percent(e.clientCpuPercent);
      return [
        i === 0 ? `${esc(p.model)} · ${esc(caseLabel(p.parameters))}` : '',
        `<b>${esc(e.tier)}</b>`,
        esc(e.who),
        String(e.n),
        `<b>${rate(e.throughput.median)}</b>${e.throughput.ci ? ` <small>${interval(e.throughput.ci, rate)}</small>` : ''}`,
        e.ofNative ? ratioWithInterval(e.ofNative, share) : e.tier === 'native' ? '100%' : '—',
        estimate(e.database),
        estimate(e.client),
        estimate(e.server),
        cpuCell,
        e.bound ? `<span class="slower">${e.bound} of ${e.n}</span>` : '',
      ];
    }),
  );
  return table(
    [
      'point',
      'tier',
      'who',
      'reps',
      'req/s [CI]',
      'of native',
      'database µs/req [CI]',
      'client µs/req [CI]',
      'implementation µs/req [CI]',
      'client CPU',
      'generator-bound',
    ],
    rows,
    3,
    'tiers',
  );
}

const PARTS = ['database server', 'client', 'implementation'] as const;

/**
 * Where the CPU of one request goes, per point: for each tier (and implementation), stacked µs
 * of the database server, the load's own client and the implementation (medians).
 */
export function tiersCpuSpec(points: readonly TierPoint[]): TopLevelSpec | null {
  const values = points.flatMap((p, pointOrder) =>
    p.entries.flatMap((e, order) => {
      const label =
        e.tier === 'http' ? e.who : `${e.tier}${points.some((q) => q.entries.filter((x) => x.tier === e.tier).length > 1) ? ` · ${e.runId.slice(5, 16)}` : ''}`;
      const parts: [string, MedianEstimate | null][] = [
        [PARTS[0], e.database],
        [PARTS[1], e.client],
        [PARTS[2], e.server],
      ];
      return parts
        .filter(([, v]) => v)
        .map(([part, v]) => ({
          point: `${p.model} · ${caseLabel(p.parameters)}`,
          pointOrder,
          label,
          order,
          part,
          us: v!.median,
          rank: PARTS.indexOf(part as (typeof PARTS)[number]),
        }));
    }),
  );
  if (values.length === 0) return null;
  return {
    data: { values },
    facet: {
      field: 'point',
      type: 'nominal',
      title: null,
      sort: { field: 'pointOrder', op: 'min' },
      header: { labelFontSize: 11, labelExpr: "split(datum.label, ' · ')", labelLimit: 210 },
    },
    columns: 4,
    spec: {
      width: 210,
      height: 150,
      mark: { type: 'bar' },
      encoding: {
        x: {
          field: 'label',
          type: 'nominal',
          title: null,
          sort: { field: 'order', op: 'min' },
          axis: { labelAngle: -30, labelLimit: 160, labelOverlap: false },
        },
        y: { field: 'us', type: 'quantitative', aggregate: 'sum', stack: 'zero', title: 'µs of CPU per request', axis: { format: ',~f' } },
        color: {
          field: 'part',
          type: 'nominal',
          scale: { domain: [...PARTS], range: ['#8c8c8c', '#e8a33d', '#4c78a8'] },
          legend: { title: null, orient: 'top' },
        },
        order: { field: 'rank' },
      },
    },
    resolve: { scale: { y: 'independent', x: 'independent' } },
  } as TopLevelSpec;
}

export const TIERS_CPU_CAPTION =
  "Per load point, the CPU one request cost (µs, medians over the repetitions): grey the database server, orange the load's own client (the native tool, the driver client, or k6), blue the implementation (HTTP only). Each panel has its own y scale.";
