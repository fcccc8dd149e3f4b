// sysbench 1.0's report → the baseline kit's output. A native-tier client runs sysbench once
// for warm-up + window with `--report-checkpoints=<warm-up> --histogram=on`: the checkpoint
// prints the warm-up's statistics and resets every counter and the histogram, so the last
// report (after the last "Latency histogram" heading) is the window's alone.
import type { BaselineOutput, LatencyUs } from './recorder.ts';

export interface SysbenchReport {
  /** Events (one case request each) in the last report. */
  readonly events: number;
  /** sysbench's events per second over the last report's interval. */
  readonly perSecond: number;
  readonly ignoredErrors: number;
  /** [ms, count] rows of the last report's latency histogram, in ascending order. */
  readonly histogram: readonly (readonly [number, number])[];
  readonly maxMs: number;
  /** The sum of the Lua scripts' "fairbench-check-failures <n>" lines (answers with the wrong row count). */
  readonly checkFailures: number;
}

const number = (text: string, re: RegExp, what: string): number => {
  const m = re.exec(text);
  if (!m) throw new Error(`sysbench's report has no ${what}`);
  return Number(m[1]);
};

export function parseSysbench(output: string): SysbenchReport {
  const at = output.lastIndexOf('Latency histogram');
  if (at < 0) throw new Error('sysbench printed no latency histogram (was --histogram=on given?)');
  const last = output.slice(at);
  const histogram = [...last.matchAll(/^\s*([\d.]+) \|[* ]*?\s(\d+)\s*$/gm)].map((m) => [Number(m[1]), Number(m[2])] as const);
  const checkFailures = [...output.matchAll(/^fairbench-check-failures (\d+)$/gm)].reduce((a, m) => a + Number(m[1]), 0);
  return {
    events: number(last, /total number of events:\s+(\d+)/, 'total number of events'),
    perSecond: number(last, /transactions:\s+\d+\s+\(([\d.]+) per sec\.\)/, 'transactions per second'),
    ignoredErrors: number(last, /ignored errors:\s+(\d+)/, 'ignored errors'),
    histogram,
    maxMs: number(last, /max:\s+([\d.]+)/, 'maximum latency'),
    checkFailures,
  };
}

/** Latency (µs) from a histogram of [ms, count]: each value stands for its bucket, the maximum from the report's own. */
export function histogramLatency(histogram: readonly (readonly [number, number])[], maxMs: number): LatencyUs {
  const total = histogram.reduce((a, [, n]) => a + n, 0);
  if (total === 0) return { min: 0, mean: 0, median: 0, p90: 0, p95: 0, p99: 0, max: maxMs * 1000 };
  const at = (p: number) => {
    const rank = Math.ceil(p * total);
    let seen = 0;
    for (const [v, n] of histogram) if ((seen += n) >= rank) return v * 1000;
    return histogram.at(-1)![0] * 1000;
  };
  const us = (v: number) => Math.round(v * 1000) / 1000;
  return {
    min: us(histogram[0]![0] * 1000),
    mean: us((histogram.reduce((a, [v, n]) => a + v * n, 0) / total) * 1000),
    median: us(at(0.5)),
    p90: us(at(0.9)),
    p95: us(at(0.95)),
    p99: us(at(0.99)),
    max: us(Math.max(maxMs, histogram.at(-1)![0]) * 1000),
  };
}

/** The kit's output: the window starts at measureFrom and lasts events / perSecond seconds (sysbench's own interval). */
export function sysbenchOutput(r: SysbenchReport, measureFrom: number): BaselineOutput {
  const seconds = r.perSecond > 0 ? r.events / r.perSecond : 0;
  const errors: Record<string, number> = {};
  if (r.ignoredErrors > 0) errors['0'] = r.ignoredErrors;
  return {
    measureFrom,
    measureUntil: Math.round(measureFrom + seconds * 1000),
    requests: r.events,
    errors,
    latencyUs: histogramLatency(r.histogram, r.maxMs),
  };
}
