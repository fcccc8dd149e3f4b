// What every database-alone client (apis/<api>/bench/baseline.ts) shares: latencies in HDR
// histograms (µs, 3 significant digits) per request type and overall, errors by code,
// sub-timings (e.g. bcrypt apart from the database), the measured window, and the output
// file the launcher reads. A client is its own process: node <client> <config.json> <out.json>.
import { readFile, writeFile } from 'node:fs/promises';
import * as hdr from 'hdr-histogram-js';
import type { LatencySummary } from '../../record/result-document.ts';

/** The result schema's latency summary, in microseconds here. */
export type LatencyUs = LatencySummary;

export interface BaselineOutput {
  readonly measureFrom: number;
  readonly measureUntil: number;
  readonly requests: number;
  readonly errors: Record<string, number>;
  readonly latencyUs: LatencyUs;
  readonly requestTypes?: Record<string, { requests: number; errors: number; latencyUs: LatencyUs; partsUs?: Record<string, LatencyUs> }>;
  readonly droppedIterations?: number;
}

/** The client's config (argv[2]) and where it writes its output (argv[3]). */
export async function clientArgs<Config>(): Promise<{ config: Config; out: string }> {
  const [configFile, out] = [process.argv[2], process.argv[3]];
  if (!configFile || !out) throw new Error('usage: node <baseline client> <config.json> <out.json>');
  return { config: JSON.parse(await readFile(configFile, 'utf8')) as Config, out };
}

const newHistogram = () => hdr.build({ lowestDiscernibleValue: 1, highestTrackableValue: 3_600_000_000, numberOfSignificantValueDigits: 3 });

const summary = (h: hdr.Histogram): LatencyUs => ({
  min: h.totalCount ? h.minNonZeroValue : 0,
  mean: h.mean,
  median: h.getValueAtPercentile(50),
  p90: h.getValueAtPercentile(90),
  p95: h.getValueAtPercentile(95),
  p99: h.getValueAtPercentile(99),
  max: h.maxValue,
});

export type ReportPart = (label: string, us: number) => void;

export class Recorder {
  /** Operations count while this is true: set it when the measured window opens and closes. */
  measuring = false;
  private readonly all = newHistogram();
  private readonly types = new Map<string, { requests: number; errors: number; total: hdr.Histogram; parts: Map<string, hdr.Histogram> }>();
  private readonly errors: Record<string, number> = {};
  private requests = 0;

  private readonly perType: boolean;

  /** @param perType whether the output lists request types (a client of one operation need not). */
  constructor(perType = true) {
    this.perType = perType;
  }

  /**
   * Times one operation of type `name` (false or a throw is an error, keyed by the driver's
   * code); `op` may report sub-timings. It counts when it started while measuring, as k6
   * counts a request by its start.
   */
  async timed(name: string, op: (part: ReportPart) => Promise<boolean>): Promise<boolean> {
    const counted = this.measuring;
    const parts: [string, number][] = [];
    const t0 = performance.now();
    let ok = false;
    let failure: string | undefined;
    try {
      ok = await op((label, us) => parts.push([label, us]));
      if (!ok) failure = 'check';
    } catch (error) {
      failure = String((error as { code?: unknown }).code ?? '0');
    }
    if (!counted) return ok;
    const us = Math.max(1, Math.round((performance.now() - t0) * 1000));
    let t = this.types.get(name);
    if (!t) this.types.set(name, (t = { requests: 0, errors: 0, total: newHistogram(), parts: new Map() }));
    t.requests++;
    t.total.recordValue(us);
    this.all.recordValue(us);
    this.requests++;
    for (const [label, v] of parts) {
      let h = t.parts.get(label);
      if (!h) t.parts.set(label, (h = newHistogram()));
      h.recordValue(Math.max(1, Math.round(v)));
    }
    if (failure) {
      t.errors++;
      this.errors[failure] = (this.errors[failure] ?? 0) + 1;
    }
    return ok;
  }

  async write(out: string, window: { from: number; until: number }, droppedIterations?: number): Promise<void> {
    const output: BaselineOutput = {
      measureFrom: window.from,
      measureUntil: window.until,
      requests: this.requests,
      errors: this.errors,
      latencyUs: summary(this.all),
      ...(this.perType
        ? {
            requestTypes: Object.fromEntries(
              [...this.types].map(([name, t]) => [
                name,
                {
                  requests: t.requests,
                  errors: t.errors,
                  latencyUs: summary(t.total),
                  ...(t.parts.size ? { partsUs: Object.fromEntries([...t.parts].map(([l, h]) => [l, summary(h)])) } : {}),
                },
              ]),
            ),
          }
        : {}),
      ...(droppedIterations !== undefined ? { droppedIterations } : {}),
    };
    await writeFile(out, JSON.stringify(output));
  }
}

/** Runs `f` and reports its duration (µs) as a part of the operation. */
export async function part<T>(report: ReportPart, label: string, f: () => Promise<T>): Promise<T> {
  const t0 = performance.now();
  try {
    return await f();
  } finally {
    report(label, (performance.now() - t0) * 1000);
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
