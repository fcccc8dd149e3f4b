// Runs the k6 script for one repetition of a case and turns its handleSummary JSON into
// the measured numbers of a result repetition.
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { runCommand, startProcess, type ManagedProcess } from '@fairbench/harness/process.ts';
import { k6Binary } from './paths.ts';
import { pinned } from './placement.ts';
import type { Case } from './scenario.ts';

export interface LoadSettings {
  readonly warmupSeconds: number;
  readonly durationSeconds: number;
  readonly seed: number;
  /** Id ranges of the data set (1..n). */
  readonly ids: { readonly comment: number; readonly user: number };
}

/** What one measured window produced, from the generator's side. */
export interface Measured {
  /** Date.now() bounds of the measured window. */
  readonly window: { readonly from: number; readonly to: number };
  readonly durationSeconds: number;
  readonly requests: number;
  readonly errors: Record<string, number>;
  readonly throughput: number;
  readonly latencyMs: { min: number; mean: number; median: number; p90: number; p95: number; p99: number; max: number };
  readonly droppedIterations?: number;
  readonly notes: string[];
}

export async function k6Version(): Promise<string> {
  const { stdout } = await runCommand(k6Binary, ['version']);
  const match = /k6 (v\S+)/.exec(stdout);
  if (!match?.[1]) throw new Error(`cannot read the k6 version from: ${stdout.trim()}`);
  return match[1];
}

export interface StartedLoad {
  readonly process: ManagedProcess;
  /** Resolves with the repetition's numbers once k6 has finished. */
  readonly done: Promise<Measured>;
}

/** Starts k6 for one repetition (warm-up + measured window) against baseUrl. */
export function startK6(
  c: Case,
  baseUrl: string,
  settings: LoadSettings,
  opts: { readonly script: string; readonly cores: readonly number[] | null; readonly workDir: string },
): StartedLoad {
  const summaryPath = join(opts.workDir, `k6-summary-${process.pid}-${Date.now()}.json`);
  const vars: Record<string, string | number> = {
    BASE_URL: baseUrl,
    PROTOCOL: c.protocol,
    ROWS: c.rows,
    JOINS: c.joins,
    MODEL: c.model,
    VUS: c.concurrency,
    RATE: c.rate ?? 0,
    WARMUP: settings.warmupSeconds,
    DURATION: settings.durationSeconds,
    COMMENT_IDS: settings.ids.comment,
    USER_IDS: settings.ids.user,
    SEED: settings.seed,
    SUMMARY_PATH: summaryPath,
  };
  const args = ['run', '--quiet', '--no-color', '--address', '', ...Object.entries(vars).flatMap(([k, v]) => ['-e', `${k}=${v}`]), opts.script];
  const [command, argv] = pinned(opts.cores, k6Binary, args);
  const child = startProcess({
    name: `k6 ${c.id}`,
    command,
    args: argv,
    // No usage report to Grafana: benchmarks stay on this machine.
    env: { ...process.env, K6_NO_USAGE_REPORT: 'true' },
    logFile: join(opts.workDir, 'k6.log'),
  });
  const limitMs = (settings.warmupSeconds + settings.durationSeconds + 60) * 1000;
  const done = (async () => {
    const timer = setTimeout(() => void child.stop(), limitMs);
    const code = await child.exited.finally(() => clearTimeout(timer));
    // 99 = a threshold failed; ours only make k6 report sub-metrics, so it carries no verdict.
    if (code !== 0 && code !== 99) throw new Error(`k6 exited with ${code} for ${c.id}:\n${await child.tail(20)}`);
    try {
      return measuredFromK6(JSON.parse(await readFile(summaryPath, 'utf8')) as K6Summary);
    } finally {
      await rm(summaryPath, { force: true });
    }
  })();
  return { process: child, done };
}

// ---- the summary ---------------------------------------------------------------

interface K6Metric {
  readonly values: Record<string, number>;
}

export interface K6Summary {
  readonly metrics: Record<string, K6Metric | undefined>;
  readonly setup_data?: { readonly measureFrom?: number };
  readonly measureUntil?: number;
}

/** The measured window's numbers from bench/k6/forum.js's summary (requests tagged phase=measure). */
export function measuredFromK6(summary: K6Summary): Measured {
  const from = summary.setup_data?.measureFrom;
  const to = summary.measureUntil;
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
  const d = 'http_req_duration{phase:measure}';
  const round = (n: number) => Math.round(n * 1000) / 1000;
  const dropped = summary.metrics['dropped_iterations'] === undefined ? undefined : value('dropped_iterations', 'count');
  return {
    window: { from, to },
    durationSeconds: round(durationSeconds),
    requests,
    errors,
    throughput: round(Math.max(0, requests - failed) / durationSeconds),
    latencyMs: {
      min: round(value(d, 'min')),
      mean: round(value(d, 'avg')),
      median: round(value(d, 'med')),
      p90: round(value(d, 'p(90)')),
      p95: round(value(d, 'p(95)')),
      p99: round(value(d, 'p(99)')),
      max: round(value(d, 'max')),
    },
    ...(dropped !== undefined ? { droppedIterations: dropped } : {}),
    notes: dropped ? ['droppedIterations counts the warm-up too (k6 does not tag dropped arrivals by phase)'] : [],
  };
}
