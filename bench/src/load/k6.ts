// Runs the k6 script for one repetition of a case and turns its handleSummary JSON into
// the measured numbers of a result repetition.
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { runCommand, startProcess } from '@fairbench/harness/process.ts';
import { LoadFailure } from './failure.ts';
import { k6Binary } from '../paths.ts';
import { pinned } from './placement.ts';
import type { LatencySummary, RequestTypeResult, TimelinePoint } from '../record/result-document.ts';
import { apdexOf, stressOutcomeOf, overTimeOf, type StressSummary } from './windows.ts';
import type { Measured, SliceMeasured, StartedLoad } from './measured.ts';

export type { Measured, SliceMeasured, StartedLoad } from './measured.ts';

/** What every case of a run shares: the window, the warm-up and the PRNG seed. */
export interface RunSettings {
  readonly warmupSeconds: number;
  readonly durationSeconds: number;
  readonly seed: number;
}

/** Seconds of latency timeline asked of k6 at most: the first two minutes show a JIT's warm-up. */
export const TIMELINE_MAX_SECONDS = 120;

/** Seconds after the planned load in which requests still in flight end (the scripts' gracefulStop is 10 s). */
const TIMELINE_TAIL_SECONDS = 10;

/** TIMELINE_SECONDS for the scripts (bench/k6/measure.js): the case's whole load (warm-up included) and its tail, up to the cap. */
export function timelineSeconds(loadSeconds: number): number {
  return Math.min(TIMELINE_MAX_SECONDS, Math.ceil(loadSeconds) + TIMELINE_TAIL_SECONDS);
}

/**
 * The script's environment for one load of a case, as every k6 run of it gets it (the local
 * runner's startK6, and make k6-operator's archives): the implementation's base URL, the
 * latency timeline's seconds, and the API module's k6Env. SUMMARY_PATH is the runner's own.
 */
export function scriptEnv(baseUrl: string, plannedLoadSeconds: number, caseEnv: Readonly<Record<string, string | number>>): Record<string, string | number> {
  return { BASE_URL: baseUrl, TIMELINE_SECONDS: timelineSeconds(plannedLoadSeconds), CHECK_EVERY, ...caseEnv };
}

/**
 * The scripts check the whole body of every answer in the warm-up and of 1 in CHECK_EVERY of
 * each VU's answers in the measured window, the others by status and length
 * (bench/k6/measure.js fullCheck; bench/docs/k6.md "What k6 checks": the chance a fault is
 * caught). Recorded in every result as generator.checkEvery.
 */
export const CHECK_EVERY = 16;

/**
 * The environment of every k6 that sends a benchmark's load (a case, the control, the floor;
 * local, on a topology's hosts, in a k6-operator TestRun): no usage report to Grafana
 * (benchmarks stay on this machine), and Go's collector at GOGC=400 instead of 100. k6
 * allocates for every request and sample; at 100 the collector ran so often that, paired
 * run by run against the no-op target, 400 cut k6's CPU per request by about 14% (8 of 10
 * pairs) for 40 MB more memory at 32 VUs. The same for every implementation; recorded in
 * every result (generator.env).
 */
export const GENERATOR_ENV: Readonly<Record<string, string>> = { K6_NO_USAGE_REPORT: 'true', GOGC: '400' };

export async function k6Version(): Promise<string> {
  const { stdout } = await runCommand(k6Binary, ['version']);
  const match = /k6 (v\S+)/.exec(stdout);
  if (!match?.[1]) throw new Error(`cannot read the k6 version from: ${stdout.trim()}`);
  return match[1];
}

export interface K6Options {
  readonly script: string;
  readonly cores: readonly number[] | null;
  readonly workDir: string;
  /** k6 is stopped after this many seconds: every run is bounded in time. */
  readonly limitSeconds: number;
  /** After the SIGINT at the limit, how long k6 may take to write its summary before it is killed (default 30 s). */
  readonly stopGraceMs?: number;
  /** How the summary becomes the measured numbers (default measuredFromK6; the floor's script has its own). */
  readonly summary?: (summary: K6Summary) => Measured;
  /** k6 run's own options before the script (e.g. the floor at a case's rate: --rps). */
  readonly args?: readonly string[];
}

// k6 took 6 s from the SIGINT to its exit on this 2-core machine under load: room for that and more.
export const STOP_GRACE_MS = 30_000;
// 99 = a threshold failed; ours only make k6 report sub-metrics, so it carries no verdict.
export const OK_EXIT_CODES: readonly (number | null)[] = [0, 99];

/** The script's environment as k6's -e arguments. */
export function envArgs(vars: Readonly<Record<string, string | number>>): string[] {
  return Object.entries(vars).flatMap(([k, v]) => ['-e', `${k}=${v}`]);
}

/**
 * Starts k6 for one repetition (warm-up + measured part) of case `id` with the script's
 * environment `env` (BASE_URL, the case's parameters; SUMMARY_PATH is added here).
 * `done` rejects with a LoadFailure when k6 outran the limit (carrying the summary k6
 * wrote of the part measured until then, if it could), exited with an error, or wrote no
 * usable summary.
 */
export function startK6(id: string, env: Readonly<Record<string, string | number>>, opts: K6Options): StartedLoad {
  const summaryPath = join(opts.workDir, `k6-${process.pid}-${Date.now()}.json`);
  const vars: Record<string, string | number> = { ...env, SUMMARY_PATH: summaryPath };
  const args = ['run', '--quiet', '--no-color', '--address', '', ...(opts.args ?? []), ...envArgs(vars), opts.script];
  const [command, argv] = pinned(opts.cores, k6Binary, args);
  const child = startProcess({
    name: `k6 ${id}`,
    command,
    args: argv,
    env: { ...process.env, ...GENERATOR_ENV },
    // Its own log: the tail quoted in a failure is this repetition's.
    logFile: summaryPath.replace(/\.json$/, '.log'),
  });
  const done = (async () => {
    let stopped = false;
    // k6 answers SIGINT by ending the test and still running handleSummary: the part
    // measured so far is kept. Only if it does not exit within the grace is it killed.
    const timer = setTimeout(() => {
      stopped = true;
      void child.stop({ signal: 'SIGINT', timeoutMs: opts.stopGraceMs ?? STOP_GRACE_MS });
    }, opts.limitSeconds * 1000);
    const code = await child.exited.finally(() => clearTimeout(timer));
    const summary = await readSummary(summaryPath, opts.summary);
    const measured = 'measured' in summary ? summary.measured : undefined;
    const missing = 'missing' in summary ? summary.missing : '';
    if (stopped) {
      const kept = measured ? ` with SIGINT; the summary of the ${measured.durationSeconds} s measured until then is kept` : `; ${missing}`;
      throw new LoadFailure('time-limit', `k6 did not finish within the case's time limit of ${opts.limitSeconds} s and was stopped${kept}`, {
        measured: measured && stoppedEarly(measured),
        detail: await child.tail(10),
      });
    }
    if (!OK_EXIT_CODES.includes(code)) throw new LoadFailure('generator', `k6 exited with ${code ?? 'a signal'}`, { measured, detail: await child.tail(20) });
    if (!measured) throw new LoadFailure('generator', `k6 exited with ${code} but ${missing}`, { detail: await child.tail(20) });
    return measured;
  })();
  return { process: child, done };
}

/** The measured numbers from the summary k6 wrote, or why there are none. */
async function readSummary(path: string, parse: (summary: K6Summary) => Measured = measuredFromK6): Promise<{ measured: Measured } | { missing: string }> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch {
    return { missing: 'it wrote no summary' };
  } finally {
    await rm(path, { force: true });
  }
  let summary: K6Summary;
  try {
    summary = JSON.parse(text) as K6Summary;
  } catch {
    return { missing: 'its summary is not JSON' };
  }
  const from = summary.setup_data?.measureFrom;
  if (from === undefined) return { missing: 'it had not begun the measured window (still initialising its VUs: setup had not run)' };
  if (summary.measureUntil === undefined || summary.measureUntil <= from) return { missing: 'it had not begun the measured window (still in the warm-up)' };
  return { measured: parse(summary) };
}

function stoppedEarly(m: Measured): Measured {
  return { ...m, notes: [...m.notes, 'k6 was stopped at the time limit: requests still waiting then are not counted'] };
}

// ---- the summary ---------------------------------------------------------------

interface K6Metric {
  readonly values: Record<string, number>;
}

export interface K6Summary {
  readonly metrics: Record<string, K6Metric | undefined>;
  readonly setup_data?: { readonly measureFrom?: number; readonly loadFrom?: number };
  readonly measureUntil?: number;
  /** bench/k6/measure.js: Apdex's T and F, when the script counted it. */
  readonly apdex?: { readonly tMs: number; readonly fMs: number };
  /** bench/k6/windows.js: the response-time-over-time windows (s), when the script tagged them. */
  readonly overTimeSeconds?: number;
  /** A stress test's stop conditions, cap and recovery bound. */
  readonly stress?: StressSummary;
  /** bench/k6/measure.js: switched slices' order (an index per slice), length and guard (s). */
  readonly slices?: { readonly order: string; readonly seconds: number; readonly guardSeconds: number };
}

/**
 * The measured window's numbers from a bench/k6 script's summary (requests tagged
 * phase=measure). Request types are the sub-metrics the script declared by name:
 * http_req_duration{phase:measure,name:X}, http_reqs{…}, errors{…}, server_ms{…}.
 */
export function measuredFromK6(summary: K6Summary): Measured {
  const from = summary.setup_data?.measureFrom;
  // A teardown after the load (a stress test's recovery check) is not part of the window.
  const to = summary.metrics['load_end_epoch_ms']?.values['max'] ?? summary.measureUntil;
  if (from === undefined || to === undefined || to <= from) throw new Error('k6 summary lacks the measured window (setup_data.measureFrom, measureUntil)');
  const value = (metric: string, key: string): number => summary.metrics[metric]?.values[key] ?? 0;
  const errors: Record<string, number> = {};
  for (const [name, metric] of Object.entries(summary.metrics)) {
    const status = /^errors\{phase:measure,status:([^}]+)\}$/.exec(name)?.[1];
    const n = metric?.values['count'] ?? 0;
    if (status !== undefined && n > 0) errors[status] = n;
  }
  const requests = value('http_reqs{phase:measure}', 'count');
  const failed = Object.values(errors).reduce((a, b) => a + b, 0);
  const durationSeconds = (to - from) / 1000;
  const slices = summary.slices ? slicesOf(summary, from, summary.slices) : undefined;
  const dropped = summary.metrics['dropped_iterations'] === undefined ? undefined : value('dropped_iterations', 'count');
  const server = trend(summary, 'server_ms{phase:measure}');
  const skipped = value('skipped{phase:measure}', 'count');
  const requestTypes: Record<string, RequestTypeResult> = {};
  for (const name of Object.keys(summary.metrics)) {
    const type = /^http_req_duration\{phase:measure,name:([^}]+)\}$/.exec(name)?.[1];
    if (type === undefined) continue;
    const n = value(`http_reqs{phase:measure,name:${type}}`, 'count');
    const failedOfType = value(`errors{phase:measure,name:${type}}`, 'count');
    const serverOfType = trend(summary, `server_ms{phase:measure,name:${type}}`);
    const apdexOfType = apdexOf(summary.metrics, summary.apdex, `,name:${type}`);
    requestTypes[type] = {
      requests: n,
      errors: failedOfType,
      throughput: round(Math.max(0, n - failedOfType) / durationSeconds),
      latencyMs: trend(summary, name) ?? zeroLatency(),
      ...(serverOfType ? { serverMs: serverOfType } : {}),
      ...(apdexOfType ? { apdex: apdexOfType } : {}),
    };
  }
  const timeline = timelineOf(summary);
  const apdex = apdexOf(summary.metrics, summary.apdex, '');
  const overTime = overTimeOf(summary.metrics, summary.overTimeSeconds, latencyOf);
  const stress = stressOutcomeOf(summary.metrics, summary.stress);
  return {
    window: { from, to },
    durationSeconds: round(durationSeconds),
    requests,
    errors,
    throughput: round(Math.max(0, requests - failed) / durationSeconds),
    latencyMs: trend(summary, 'http_req_duration{phase:measure}') ?? zeroLatency(),
    ...(server ? { serverMs: server } : {}),
    ...(Object.keys(requestTypes).length > 0 ? { requestTypes } : {}),
    ...(dropped !== undefined ? { droppedIterations: dropped } : {}),
    ...(timeline.length > 0 ? { timeline } : {}),
    ...(apdex ? { apdex } : {}),
    ...(overTime ? { overTime } : {}),
    ...(stress ? { stress } : {}),
    ...(slices ? { slices } : {}),
    notes: [
      ...(dropped ? ['droppedIterations counts the warm-up too (k6 does not tag dropped arrivals by phase)'] : []),
      ...(skipped ? [`${skipped} requests not sent because an earlier step of their flow failed (that step is counted as the error)`] : []),
    ],
  };
}

const round = (n: number) => Math.round(n * 1000) / 1000;

/** Each switched slice's window (from its guard's end to its end) and figures: the sub-metrics tagged slice:sN. */
function slicesOf(summary: K6Summary, from: number, s: NonNullable<K6Summary['slices']>): SliceMeasured[] {
  const value = (metric: string): number => summary.metrics[metric]?.values['count'] ?? 0;
  // Every slice's errors by status, in one pass over the metrics.
  const errorsOf = new Map<number, Record<string, number>>();
  for (const [name, metric] of Object.entries(summary.metrics)) {
    const match = /^errors\{phase:measure,slice:s(\d+),status:([^}]+)\}$/.exec(name);
    const n = metric?.values['count'] ?? 0;
    if (!match || n === 0) continue;
    const slice = Number(match[1]);
    errorsOf.set(slice, { ...errorsOf.get(slice), [match[2]!]: n });
  }
  return [...s.order].map((side, i) => {
    const tags = `{phase:measure,slice:s${i + 1}}`;
    const window = { from: from + (i * s.seconds + s.guardSeconds) * 1000, to: from + (i + 1) * s.seconds * 1000 };
    const durationSeconds = (window.to - window.from) / 1000;
    const errors = errorsOf.get(i + 1) ?? {};
    const requests = value(`http_reqs${tags}`);
    const failed = Object.values(errors).reduce((a, b) => a + b, 0);
    const server = trend(summary, `server_ms${tags}`);
    const skipped = value(`skipped${tags}`);
    return {
      side: Number(side),
      measured: {
        window,
        durationSeconds: round(durationSeconds),
        requests,
        errors,
        throughput: round(Math.max(0, requests - failed) / durationSeconds),
        latencyMs: trend(summary, `http_req_duration${tags}`) ?? zeroLatency(),
        ...(server ? { serverMs: server } : {}),
        notes: skipped ? [`${skipped} requests not sent because an earlier step of their flow failed (that step is counted as the error)`] : [],
      },
    };
  });
}

/** The per-second sub-metrics http_req_duration{sec:N} (measure.js; timeline_ms{sec:N} in older scripts) in order; seconds without a response are left out. */
export function timelineOf(summary: K6Summary): TimelinePoint[] {
  const points: TimelinePoint[] = [];
  for (const [name, metric] of Object.entries(summary.metrics)) {
    // timeline_ms{sec:N} (older scripts: a Trend of its own), http_req_duration{sec:N} (sec a VU tag).
    const second = /^(?:timeline_ms|http_req_duration)\{sec:(\d+)\}$/.exec(name)?.[1];
    const v = metric?.values;
    if (second === undefined || !v || !(v['count'] ?? 0)) continue;
    points.push({ second: Number(second), requests: v['count'] ?? 0, p50Ms: round(v['med'] ?? 0), p95Ms: round(v['p(95)'] ?? 0) });
  }
  return points.sort((a, b) => a.second - b.second);
}

function zeroLatency(): LatencySummary {
  return { min: 0, mean: 0, median: 0, p90: 0, p95: 0, p99: 0, max: 0 };
}

/** A trend metric's summary in ms; undefined when it recorded no value (k6 then reports no count or 0). */
function trend(summary: K6Summary, metric: string): LatencySummary | undefined {
  const v = summary.metrics[metric]?.values;
  if (!v || !(v['count'] ?? 0)) return undefined;
  const sd = metric.startsWith('http_req_duration') ? latencySd(summary, metric.slice('http_req_duration'.length), v['count'] ?? 0, v['avg'] ?? 0) : undefined;
  return { ...latencyOf(v), ...(sd !== undefined ? { sd: round(sd) } : {}) };
}

/** A k6 trend's values as a latency summary (the quartiles when the script asked for them). */
function latencyOf(v: Record<string, number>): LatencySummary {
  const at = (key: string) => round(v[key] ?? 0);
  const quartiles = v['p(25)'] !== undefined && v['p(75)'] !== undefined ? { p25: at('p(25)'), p75: at('p(75)') } : {};
  return { min: at('min'), mean: at('avg'), median: at('med'), p90: at('p(90)'), p95: at('p(95)'), p99: at('p(99)'), max: at('max'), ...quartiles };
}

/**
 * The standard deviation of the requests' latencies from the script's running sums
 * (bench/k6/measure.js record()): √(Σx²/n − (Σx/n)²). Left out when the script does not
 * keep the sums, or when they do not cover the same requests as k6's own timing (their
 * mean would then differ from k6's).
 */
function latencySd(summary: K6Summary, tags: string, n: number, mean: number): number | undefined {
  const sum = summary.metrics[`latency_sum_ms${tags}`]?.values['count'];
  const squares = summary.metrics[`latency_sq_ms2${tags}`]?.values['count'];
  // latency_n: the sums cover the declared sample of fully checked requests (measure.js), not all of them.
  const sampled = summary.metrics[`latency_n${tags}`]?.values['count'];
  if (sampled !== undefined)
    return sum === undefined || squares === undefined || sampled === 0 ? undefined : Math.sqrt(Math.max(0, squares / sampled - (sum / sampled) ** 2));
  if (sum === undefined || squares === undefined || n === 0) return undefined;
  if (Math.abs(sum / n - mean) > 0.01 * mean + 0.01) return undefined;
  return Math.sqrt(Math.max(0, squares / n - (sum / n) ** 2));
}
