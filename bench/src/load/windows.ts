// What a k6 summary says through the windows of bench/k6/windows.js and the counts of
// bench/k6/measure.js: Apdex from counts, response time over time, and a stress test's end
// (the first window that met a stop condition, and the recovery check after the load).
import type { Apdex, LatencySummary, StressOutcome, OverTime } from '../record/result-document.ts';

interface Metric {
  readonly values: Record<string, number>;
}
type Metrics = Readonly<Record<string, Metric | undefined>>;

const round = (n: number, digits = 3) => Math.round(n * 10 ** digits) / 10 ** digits;

/** Apdex (T, F) from the counts: (satisfied + tolerating / 2) / requests; failed requests count as frustrated. */
export function apdexFromCounts(tMs: number, fMs: number, requests: number, satisfied: number, tolerating: number): Apdex | undefined {
  if (requests <= 0) return undefined;
  if (satisfied + tolerating > requests) throw new Error(`apdex: ${satisfied} satisfied + ${tolerating} tolerating exceed ${requests} requests`);
  return { tMs, fMs, requests, satisfied, tolerating, score: round((satisfied + tolerating / 2) / requests) };
}

/** The Apdex of the requests a sub-metric tag (e.g. ',name:login') selects, when the script counted it. */
export function apdexOf(metrics: Metrics, config: { tMs: number; fMs: number } | undefined, tags: string): Apdex | undefined {
  const sat = metrics[`apdex_satisfied{phase:measure${tags}}`];
  if (!config || !sat) return undefined;
  const count = (m: string) => metrics[m]?.values['count'] ?? 0;
  return apdexFromCounts(
    config.tMs,
    config.fMs,
    count(`http_reqs{phase:measure${tags}}`),
    count(`apdex_satisfied{phase:measure${tags}}`),
    count(`apdex_tolerating{phase:measure${tags}}`),
  );
}

/** The windows of one tag, by index: `metric{phase:measure,<tag>:<k>}`. */
function windows(metrics: Metrics, metric: string, tag: string): Map<number, Record<string, number>> {
  const re = new RegExp(`^${metric}\\{phase:measure,${tag}:(\\d+)\\}$`);
  const out = new Map<number, Record<string, number>>();
  for (const [name, m] of Object.entries(metrics)) {
    const k = re.exec(name)?.[1];
    if (k !== undefined && m) out.set(Number(k), m.values);
  }
  return out;
}

/** Response time over time, from the windows that saw requests. */
export function overTimeOf(metrics: Metrics, windowSeconds: number | undefined, latency: (v: Record<string, number>) => LatencySummary): OverTime | undefined {
  if (windowSeconds === undefined) return undefined;
  const failed = windows(metrics, 'failed', 'tw');
  const points = [...windows(metrics, 'http_req_duration', 'tw')]
    .filter(([, v]) => (v['count'] ?? 0) > 0)
    .sort(([a], [b]) => a - b)
    .map(([k, v]) => ({
      fromSeconds: round(k * windowSeconds),
      requests: v['count']!,
      errorRate: round(failed.get(k)?.['rate'] ?? 0, 4),
      latencyMs: latency(v),
    }));
  return points.length > 0 ? { windowSeconds, points } : undefined;
}

export interface StopRule {
  readonly meanMs: number;
  readonly meanSeconds: number;
  readonly errorRate: number;
  readonly errorSeconds: number;
}

/** One window from the ramp's start: its index, requests and figure (mean ms or failure rate). */
export interface RuleWindow {
  readonly k: number;
  readonly requests: number;
  readonly value: number;
}

/**
 * The first window (by its end, from the ramp's start) that met a stop condition — the same
 * comparisons as the aborting thresholds of bench/k6/windows.js — or undefined.
 */
export function firstFailure(mean: readonly RuleWindow[], errors: readonly RuleWindow[], rule: StopRule): { endMs: number; reason: string } | undefined {
  const hits = [
    ...mean
      .filter((w) => w.requests > 0 && w.value > rule.meanMs)
      .map((w) => ({
        endMs: (w.k + 1) * rule.meanSeconds * 1000,
        reason: `mean response time ${Math.round(w.value)} ms > ${rule.meanMs} ms over ${rule.meanSeconds} s (${w.requests} requests)`,
      })),
    ...errors
      .filter((w) => w.requests > 0 && w.value > rule.errorRate)
      .map((w) => ({
        endMs: (w.k + 1) * rule.errorSeconds * 1000,
        reason: `error rate ${round(w.value * 100, 1)}% > ${rule.errorRate * 100}% over ${rule.errorSeconds} s (${w.requests} requests)`,
      })),
  ];
  return hits.sort((a, b) => a.endMs - b.endMs)[0];
}

export interface StressSummary {
  readonly failure: StopRule;
  readonly capSeconds: number;
  readonly recoverySeconds: number;
}

/** The stress test's end from the summary: time to failure from the ramp's start, or survived to the cap; then the recovery. */
export function stressOutcomeOf(metrics: Metrics, stress: StressSummary | undefined): StressOutcome | undefined {
  if (!stress) return undefined;
  const list = (metric: string, tag: string, figure: string) =>
    [...windows(metrics, metric, tag)].map(([k, v]) => ({ k, requests: v['count'] ?? (v['passes'] ?? 0) + (v['fails'] ?? 0), value: v[figure] ?? 0 }));
  const first = firstFailure(list('http_req_duration', 'sw', 'avg'), list('failed', 'ew', 'rate'), stress.failure);
  const recovered = (metrics['recovered']?.values['rate'] ?? 0) === 1;
  const recoveryMs = metrics['recovery_ms']?.values['max'];
  const recovery = {
    recovered,
    withinSeconds: stress.recoverySeconds,
    ...(recovered && recoveryMs !== undefined ? { seconds: round(recoveryMs / 1000) } : {}),
  };
  if (!first) return { reason: `survived to the cap (${stress.capSeconds} s)`, capSeconds: stress.capSeconds, recovery };
  return { failedAfterSeconds: round(first.endMs / 1000), reason: first.reason, capSeconds: stress.capSeconds, recovery };
}
