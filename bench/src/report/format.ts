// Number formats shared by the HTML report and the Markdown summary.
import type { Interval, RatioEstimate } from '../stats/index.ts';
import type { BenchResult } from '../record/result-document.ts';

const MiB = 1024 * 1024;

/** req/s: whole numbers from 100 up, one decimal below. */
export function rate(x: number): string {
  return x.toLocaleString('en-US', { maximumFractionDigits: x >= 100 ? 0 : 1 });
}

/** ms with three significant digits (0.412, 12.3, 1,240). */
export function ms(x: number): string {
  if (x >= 1000) return x.toLocaleString('en-US', { maximumFractionDigits: 0 });
  return Number(x.toPrecision(3)).toString();
}

export function mib(bytes: number): string {
  return (bytes / MiB).toLocaleString('en-US', { maximumFractionDigits: 1 });
}

export function percent(x: number): string {
  return `${Math.round(x)}%`;
}

export function interval(ci: Interval | null, f: (x: number) => string): string {
  return ci ? `[${f(ci.low)}, ${f(ci.high)}]` : '';
}

/** A ratio as a signed relative difference: 1.23 → "+23.0%". */
export function relative(ratio: number): string {
  if (!Number.isFinite(ratio)) return ratio > 0 ? '+∞' : '−∞';
  const d = (ratio - 1) * 100;
  return `${d >= 0 ? '+' : '−'}${Math.abs(d).toFixed(1)}%`;
}

/** A comparison's minimum detectable effect (stats/precision.ts): 0.062 → "±6.2%"; "—" when its spread cannot say. */
export function detectable(c: { mde?: number | null }): string {
  return c.mde === undefined || c.mde === null || !Number.isFinite(c.mde) ? '—' : `±${(c.mde * 100).toFixed(1)}%`;
}

/** A share of the limit: 0.553 → "55%" */
export function share(ratio: number): string {
  return `${(ratio * 100).toFixed(0)}%`;
}

export function ratioWithInterval(r: RatioEstimate, f: (x: number) => string): string {
  return r.ci ? `${f(r.ratio)} ${interval(r.ci, f)}` : f(r.ratio);
}

/** A p-value: two significant digits, "<0.0001" below that. */
export function pValue(p: number | null): string {
  if (p === null) return '—';
  if (p < 1e-4) return '<0.0001';
  return Number(p.toPrecision(2)).toString();
}

/** How the served cases' repetitions were cut: switched slices of one load per process pair (options.switchedSlices), over several starts (options.processPairs); '' for one load each of one start. */
export function switchedNote(o: Pick<BenchResult['options'], 'switchedSlices' | 'processPairs'>): string {
  const s = o.switchedSlices;
  const k = o.processPairs;
  const starts = k ? `, each served case's implementations started ${k} times, the repetitions spread over the starts` : '';
  return s
    ? `; served cases: ${s.pairs} pairs of switched slices (one k6 load per ${k ? 'start' : 'case'}, ${s.sliceSeconds} s each, the first ${s.guardSeconds} s left out)${starts}`
    : starts;
}
