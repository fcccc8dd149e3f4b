// Overload and recovery: the probe's p95 at a light arrival rate, the capacity from a short
// closed loop, then an open-model load at `factor` times that capacity for `overload` seconds
// (k6: its own bounded VUs, to 127.0.0.1), then the light rate again. The process must live,
// its memory stay within `memoryFactor` times what it held before (plus 100 MB), and the p95
// of one-second windows come back within 2× the one before, within recoverWithin seconds.
import { readFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { binDir, repoRoot, resultsDir } from '@fairbench/harness/paths.ts';
import { runCommand } from '@fairbench/harness/process.ts';
import { substitute } from '../../flows/variables.ts';
import type { ApiRequest } from '../files.ts';
import type { ScenarioContext, ScenarioResult } from '../context.ts';
import type { Scenario } from '../files.ts';

interface K6Summary {
  readonly requests: number;
  readonly rate: number;
  readonly p95Ms: number | null;
  readonly failedRate: number | null;
  readonly dropped: number;
}

const SCRIPT = join(repoRoot, 'conformance', 'resilience', 'k6-probe.js');

async function k6(ctx: ScenarioContext, load: { rate?: number; vus?: number; seconds: number }, tag: string): Promise<K6Summary> {
  const dir = join(resultsDir, 'resilience', 'k6');
  await mkdir(dir, { recursive: true });
  const summary = join(dir, `${tag}.json`);
  const probe = substitute(ctx.api.probe, ctx.variables) as ApiRequest;
  await runCommand(join(binDir, 'k6'), ['run', '--quiet', '--no-usage-report', SCRIPT], {
    env: {
      ...process.env,
      BASE_URL: ctx.running.baseUrl,
      PROBE_METHOD: probe.method,
      PROBE_PATH: probe.path,
      PROBE_BODY: probe.json === undefined ? '' : JSON.stringify(probe.json),
      // A probe behind a token (its `auth`) sends it, as toCall does for the other scenarios.
      PROBE_AUTH: probe.auth ?? '',
      RATE: String(load.rate ?? 0),
      VUS: String(load.vus ?? 0),
      DURATION: String(load.seconds),
      SUMMARY_PATH: summary,
    },
  });
  return JSON.parse(await readFile(summary, 'utf8')) as K6Summary;
}

async function rssKiB(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
}

export async function runOverload(ctx: ScenarioContext, s: Scenario): Promise<ScenarioResult> {
  const light = s.rate ?? 20;
  const pid = ctx.running.process.pid;
  const before = await k6(ctx, { rate: light, seconds: s.before ?? 3 }, 'before');
  const rssBefore = await rssKiB(pid);
  const capacity = await k6(ctx, { vus: 16, seconds: 3 }, 'capacity');
  const overloadRate = Math.max(light, Math.round(capacity.rate * (s.factor ?? 2)));
  let rssMax = rssBefore;
  const sampler = setInterval(() => void rssKiB(pid).then((kib) => (rssMax = Math.max(rssMax, kib))), 250);
  let overload: K6Summary;
  try {
    overload = await k6(ctx, { rate: overloadRate, seconds: s.overload ?? 30 }, 'overload');
  } finally {
    clearInterval(sampler);
  }
  const ended = performance.now();
  // Recovery: light load in one-second windows until the p95 is within 2× the one before.
  const target = 2 * (before.p95Ms ?? 0);
  const windows: number[] = [];
  let recoveryMs: number | null = null;
  for (let i = 0; i < Math.ceil(s.recoverWithin ?? 10); i++) {
    const w = await k6(ctx, { rate: light, seconds: 1 }, `recovery-${i}`);
    windows.push(Math.round(w.p95Ms ?? Infinity));
    if ((w.p95Ms ?? Infinity) <= target && (w.failedRate ?? 1) === 0) {
      recoveryMs = Math.round(performance.now() - ended);
      break;
    }
  }
  const failures: string[] = [];
  if (!ctx.running.process.alive()) failures.push('the implementation process died under the overload');
  const memoryLimit = rssBefore * (s.memoryFactor ?? 4) + 100 * 1024;
  if (rssMax > memoryLimit)
    failures.push(
      `its memory grew to ${Math.round(rssMax / 1024)} MB under the overload (limit ${Math.round(memoryLimit / 1024)} MB: ${s.memoryFactor ?? 4}× the ${Math.round(rssBefore / 1024)} MB before, + 100 MB)`,
    );
  if (recoveryMs === null)
    failures.push(`the p95 did not come back within 2× the ${Math.round(before.p95Ms ?? 0)} ms before (one-second windows: ${windows.join(', ')} ms)`);
  return {
    passed: failures.length === 0,
    failures,
    figures: {
      p95BeforeMs: Math.round(before.p95Ms ?? 0),
      capacityPerS: Math.round(capacity.rate),
      overloadRatePerS: overloadRate,
      overloadServed: overload.requests,
      overloadDropped: overload.dropped,
      overloadFailedRate: overload.failedRate,
      overloadP95Ms: Math.round(overload.p95Ms ?? 0),
      rssBeforeMB: Math.round(rssBefore / 1024),
      rssMaxMB: Math.round(rssMax / 1024),
      recoveryMs,
      recoveryWindowsP95Ms: windows,
    },
  };
}
