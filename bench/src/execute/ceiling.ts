// The generator's ceiling: at the start of every run, k6 loops against a no-op server
// (nginx answering a fixed 200, bench/tools/noop/nginx.conf) on 127.0.0.1, the server on
// the implementation's cores and k6 on its own, as in a case. The rate it reaches is the
// most k6 can send on this machine, and its CPU per request what one request costs it: a
// case whose rate comes near the ceiling may be measuring k6, not the implementation.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from '@fairbench/harness/ports.ts';
import { runCommand, startProcess } from '@fairbench/harness/process.ts';
import { tcpAccepts } from '@fairbench/harness/provision/local/support.ts';
import { repoRoot } from '@fairbench/harness/paths.ts';
import { cpuPerRequest } from '../load/cpu-per-request.ts';
import { startK6, type K6Summary, type Measured } from '../load/k6.ts';
import { pinned, type Placement } from '../load/placement.ts';
import { TreeSampler } from '../load/proc-sampler.ts';
import { runWrk } from '../load/wrk.ts';
import { CEILING_SHARE_WARNING, type GeneratorCeiling, type GeneratorFloor } from '../record/result-document.ts';

export interface CeilingLoad {
  readonly vus: number;
  readonly warmupSeconds: number;
  readonly durationSeconds: number;
  /** The window's equal parts, whose rates give the control's coefficient of variation. */
  readonly windows: number;
}

/** Enough VUs to keep k6's core busy against a server that answers in microseconds; a short window: the run pays it once. */
export const CEILING_LOAD: CeilingLoad = { vus: 32, warmupSeconds: 1, durationSeconds: 3, windows: 6 };

const NGINX = '/usr/sbin/nginx';
const CONFIG = join(repoRoot, 'bench', 'tools', 'noop', 'nginx.conf');
const SCRIPT = join(repoRoot, 'bench', 'k6', 'noop.js');
const FLOOR_SCRIPT = join(repoRoot, 'bench', 'k6', 'floor.js');

/** nginx's version, or undefined when it is not installed (make setup installs it). */
async function nginxVersion(): Promise<string | undefined> {
  try {
    const { stdout, stderr } = await runCommand(NGINX, ['-v']);
    return /nginx\/(\S+)/.exec(stdout + stderr)?.[1];
  } catch {
    return undefined;
  }
}

/**
 * Measures the ceiling in `workDir` (its own subdirectory), bounded in time; undefined,
 * with the reason printed, when nginx is missing or the measurement failed: the run goes on.
 */
export async function measureCeiling(
  placement: Placement,
  workDir: string,
  load: CeilingLoad = CEILING_LOAD,
  crossCheck = true,
): Promise<GeneratorCeiling | undefined> {
  const version = await nginxVersion();
  if (!version) {
    console.log(`generator ceiling: not measured (${NGINX} is missing: run make setup)`);
    return undefined;
  }
  const dir = join(workDir, 'noop');
  await mkdir(dir, { recursive: true });
  const port = await freePort();
  const config = join(dir, 'nginx.conf');
  await writeFile(config, (await readFile(CONFIG, 'utf8')).replaceAll('@DIR@', dir).replaceAll('@PORT@', String(port)));
  const [command, args] = pinned(placement.implementation, NGINX, ['-p', dir, '-c', config]);
  const nginx = startProcess({ name: 'nginx (no-op target)', command, args, logFile: join(dir, 'nginx.log') });
  try {
    const deadline = Date.now() + 5_000;
    while (!(await tcpAccepts(port))) {
      if (!nginx.alive() || Date.now() > deadline) throw new Error(`nginx did not listen on ${port}: ${await nginx.tail(5)}`);
      await sleep(50);
    }
    // The floor first: a plain http.get with k6's defaults against the same nginx (k6/floor.js).
    const floor = await measureFloor(port, nginx.pid, placement, dir, load).catch((error: unknown) => {
      console.log(`generator floor: not measured (${error instanceof Error ? error.message.split('\n')[0] : String(error)})`);
      return undefined;
    });
    const k6 = startK6(
      'generator ceiling',
      { BASE_URL: `http://127.0.0.1:${port}`, VUS: load.vus, WARMUP: load.warmupSeconds, DURATION: load.durationSeconds, WINDOWS: load.windows },
      {
        script: SCRIPT,
        cores: placement.generator,
        workDir: dir,
        limitSeconds: load.warmupSeconds + load.durationSeconds + 30,
        stopGraceMs: 5_000,
      },
    );
    const sampler = new TreeSampler({ generator: k6.process.pid, target: nginx.pid }, 10);
    sampler.start();
    const measured = await k6.done.finally(() => sampler.stop());
    const generator = sampler.usage('generator', measured.window.from, measured.window.to);
    const target = sampler.usage('target', measured.window.from, measured.window.to);
    const perRequest = cpuPerRequest({ server: target, database: undefined, generator }, measured.requests);
    const failed = Object.values(measured.errors).reduce((a, b) => a + b, 0);
    if (failed > 0) throw new Error(`${failed} of ${measured.requests} requests to the no-op target failed`);
    const parts = windowRates(measured, load.windows);
    // The cross-check: wrk against the same target with as many connections, when it is installed.
    const wrk = !crossCheck
      ? undefined
      : await runWrk(`http://127.0.0.1:${port}/`, { connections: load.vus, seconds: load.durationSeconds, cores: placement.generator, workDir: dir }).catch(
          (error: unknown) => {
            console.log(`generator ceiling: no wrk cross-check (${error instanceof Error ? error.message.split('\n')[0] : String(error)})`);
            return undefined;
          },
        );
    return {
      target: `nginx ${version}`,
      vus: load.vus,
      durationSeconds: measured.durationSeconds,
      requests: measured.requests,
      rate: measured.throughput,
      latencyMs: measured.latencyMs,
      ...(perRequest?.generator !== undefined ? { cpuPerRequestUs: perRequest.generator } : {}),
      ...(perRequest?.server !== undefined ? { targetCpuPerRequestUs: perRequest.server } : {}),
      ...(generator ? { cpuPercentMean: generator.cpuPercentMean } : {}),
      ...(wrk ? { crossCheck: wrk } : {}),
      ...(parts.length > 1 ? { windowRates: parts, cv: Math.round(coefficientOfVariation(parts) * 1000) / 1000 } : {}),
      ...(perRequest?.generator ? { cpuBoundRate: Math.round((1e6 / perRequest.generator) * (placement.generator?.length ?? 1)) } : {}),
      ...(floor ? { floor } : {}),
      ...(floor && perRequest?.generator ? { overFloor: Math.round((perRequest.generator / floor.cpuPerRequestUs) * 100) / 100 } : {}),
    };
  } catch (error) {
    console.log(`generator ceiling: not measured (${error instanceof Error ? error.message.split('\n')[0] : String(error)})`);
    return undefined;
  } finally {
    await nginx.stop({ signal: 'SIGQUIT', timeoutMs: 5_000 });
  }
}

/**
 * The floor F: k6/floor.js (a plain http.get, k6's default options, no tag, check or custom
 * metric) against the no-op target, with the control's VUs and window. Its requests are not
 * tagged by phase (a tag is a cost the floor must not have): the window's share of them is
 * the whole load's × window / load, the rate being steady after the first fraction of a second.
 */
async function measureFloor(port: number, targetPid: number, placement: Placement, dir: string, load: CeilingLoad): Promise<GeneratorFloor> {
  const k6 = startK6(
    'generator floor',
    { BASE_URL: `http://127.0.0.1:${port}`, VUS: load.vus, WARMUP: load.warmupSeconds, DURATION: load.durationSeconds },
    {
      script: FLOOR_SCRIPT,
      cores: placement.generator,
      workDir: dir,
      limitSeconds: load.warmupSeconds + load.durationSeconds + 30,
      stopGraceMs: 5_000,
      summary: floorSummary,
    },
  );
  const sampler = new TreeSampler({ generator: k6.process.pid, target: targetPid }, 10);
  sampler.start();
  const measured = await k6.done.finally(() => sampler.stop());
  const generator = sampler.usage('generator', measured.window.from, measured.window.to);
  const perRequest = cpuPerRequest({ server: undefined, database: undefined, generator }, measured.requests);
  if (perRequest?.generator === undefined || measured.requests === 0) throw new Error('k6 sent no request, or its CPU was not sampled');
  return {
    script: 'bench/k6/floor.js',
    requests: measured.requests,
    rate: measured.throughput,
    cpuPerRequestUs: perRequest.generator,
    ...(generator ? { cpuPercentMean: generator.cpuPercentMean } : {}),
  };
}

/** floor.js's summary: its requests in the window estimated from the whole load's (see measureFloor). */
export function floorSummary(summary: K6Summary): Measured {
  const from = summary.setup_data?.measureFrom;
  const to = summary.measureUntil;
  const loadFrom = summary.setup_data?.loadFrom;
  const all = summary.metrics['http_reqs']?.values['count'];
  if (from === undefined || to === undefined || loadFrom === undefined || all === undefined || to <= from)
    throw new Error('floor.js summary lacks the window or the request count');
  const seconds = (to - from) / 1000;
  const requests = Math.round((all * (to - from)) / (to - loadFrom));
  const failed = summary.metrics['http_req_failed']?.values['passes'] ?? 0;
  if (failed > 0) throw new Error(`${failed} of ${all} requests to the no-op target failed`);
  const zero = { min: 0, mean: 0, median: 0, p90: 0, p95: 0, p99: 0, max: 0 };
  return {
    window: { from, to },
    durationSeconds: seconds,
    requests,
    errors: {},
    throughput: Math.round((requests / seconds) * 10) / 10,
    latencyMs: zero,
    notes: [],
  };
}

/** The rate in each equal part of the window (requests named w1, w2, … by k6/noop.js). */
export function windowRates(m: Pick<Measured, 'durationSeconds' | 'requestTypes'>, windows: number): number[] {
  const seconds = m.durationSeconds / windows;
  const rates: number[] = [];
  for (let i = 1; i <= windows; i++) {
    const n = m.requestTypes?.[`w${i}`]?.requests;
    if (n === undefined) return [];
    rates.push(Math.round((n / seconds) * 10) / 10);
  }
  return rates;
}

/** Sample standard deviation over the mean. */
export function coefficientOfVariation(xs: readonly number[]): number {
  const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
  const variance = xs.reduce((a, x) => a + (x - mean) ** 2, 0) / (xs.length - 1);
  return mean > 0 ? Math.sqrt(variance) / mean : 0;
}

/** One line for the console. */
export function describeCeiling(c: GeneratorCeiling): string {
  const floor = c.floor
    ? `generator floor F: ${c.floor.cpuPerRequestUs} µs of k6 CPU per request (plain http.get, ${Math.round(c.floor.rate)} req/s); the control ${c.overFloor ?? '?'} × F\n`
    : '';
  return `${floor}generator ceiling: k6 reached ${Math.round(c.rate)} req/s against ${c.target} with ${c.vus} VUs at ${c.cpuPercentMean ?? '?'}% CPU, ${c.cpuPerRequestUs ?? '?'} µs of k6 CPU per request (${c.cpuBoundRate ?? '?'} req/s if its cores were all k6's)${c.cv !== undefined ? `, CV ${(c.cv * 100).toFixed(1)}% over ${c.windowRates?.length} parts of the window` : ''}${c.crossCheck ? `; ${c.crossCheck.name}: ${Math.round(c.crossCheck.rate)} req/s at ${c.crossCheck.cpuPerRequestUs} µs per request` : ''}; cases above ${CEILING_SHARE_WARNING * 100}% of ${Math.round(c.rate)} req/s are flagged`;
}
