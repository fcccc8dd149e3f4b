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
import { CHECK_EVERY, startK6, type K6Summary, type Measured } from '../load/k6.ts';
import { pinned, type Placement } from '../load/placement.ts';
import { TreeSampler } from '../load/proc-sampler.ts';
import { runWrk } from '../load/wrk.ts';
import { median } from '../stats/descriptive.ts';
import { CEILING_SHARE_WARNING, type GeneratorCeiling, type GeneratorFloor } from '../record/result-document.ts';

export interface CeilingLoad {
  readonly vus: number;
  readonly warmupSeconds: number;
  readonly durationSeconds: number;
  /** The window's equal parts, whose rates give the control's coefficient of variation. */
  readonly windows: number;
  /** Rounds of the floor then the control, each in its own k6: their paired ratios' median is the control's cost over F. */
  readonly rounds: number;
}

/**
 * Enough VUs to keep k6's core busy against a server that answers in microseconds; short
 * windows: the run pays them once. Rounds, not one long window: on a shared 2-core machine
 * one k6 process's CPU per request drifts by a third from one run to the next, so the floor
 * and the control are measured alternately and compared round by round (adjacent, hence
 * under the same conditions), the median of the rounds' ratios being the one reported.
 */
export const CEILING_LOAD: CeilingLoad = { vus: 32, warmupSeconds: 1, durationSeconds: 2, windows: 4, rounds: 3 };

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

/** One round's control: noop.js's measured window, and k6's and the target's CPU in it. */
interface ControlRound {
  readonly measured: Measured;
  readonly generatorUs: number;
  readonly targetUs: number | undefined;
  readonly cpuPercentMean: number | undefined;
}

/** Ratios to two decimals (the control over F; a case over its floor at rate, rate-floor.ts). */
export const round2 = (x: number): number => Math.round(x * 100) / 100;

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
  const notMeasured = (error: unknown): undefined => {
    console.log(`generator ceiling: not measured (${error instanceof Error ? error.message.split('\n')[0] : String(error)})`);
    return undefined;
  };
  const target = await startNoopTarget(placement, join(workDir, 'noop')).catch(notMeasured);
  if (!target) return undefined;
  const dir = target.dir;
  try {
    // Each round: the floor (a plain http.get with k6's defaults, k6/floor.js), then the control.
    const floors: GeneratorFloor[] = [];
    const controls: ControlRound[] = [];
    let floorFailed = false;
    for (let i = 0; i < load.rounds; i++) {
      if (!floorFailed) {
        const floor = await measureFloor(target, placement, dir, load).catch((error: unknown) => {
          console.log(`generator floor: not measured (${error instanceof Error ? error.message.split('\n')[0] : String(error)})`);
          return undefined;
        });
        if (floor) floors.push(floor);
        else floorFailed = true;
      }
      controls.push(await measureControl(target.port, target.pid, placement, dir, load));
    }
    // The cross-check: wrk against the same target with as many connections, when it is installed.
    const wrk = !crossCheck
      ? undefined
      : await runWrk(`http://127.0.0.1:${target.port}/`, {
          connections: load.vus,
          seconds: load.durationSeconds,
          cores: placement.generator,
          workDir: dir,
        }).catch((error: unknown) => {
          console.log(`generator ceiling: no wrk cross-check (${error instanceof Error ? error.message.split('\n')[0] : String(error)})`);
          return undefined;
        });
    return summarize(version, load, placement, controls, floorFailed ? [] : floors, wrk);
  } catch (error) {
    return notMeasured(error);
  } finally {
    await target.stop();
  }
}

/** The no-op target, listening on 127.0.0.1 on the implementation's cores. */
export interface NoopTarget {
  /** Its throwaway directory (configuration, logs), where the k6 measuring against it writes too. */
  readonly dir: string;
  readonly port: number;
  readonly pid: number;
  stop(): Promise<void>;
}

/** Starts nginx with bench/tools/noop/nginx.conf in `dir` and waits (5 s at most) until it accepts. */
export async function startNoopTarget(placement: Placement, dir: string): Promise<NoopTarget> {
  await mkdir(dir, { recursive: true });
  const port = await freePort();
  const config = join(dir, 'nginx.conf');
  await writeFile(config, (await readFile(CONFIG, 'utf8')).replaceAll('@DIR@', dir).replaceAll('@PORT@', String(port)));
  const [command, args] = pinned(placement.implementation, NGINX, ['-p', dir, '-c', config]);
  const nginx = startProcess({ name: 'nginx (no-op target)', command, args, logFile: join(dir, 'nginx.log') });
  const stop = () => nginx.stop({ signal: 'SIGQUIT', timeoutMs: 5_000 });
  const deadline = Date.now() + 5_000;
  while (!(await tcpAccepts(port))) {
    if (!nginx.alive() || Date.now() > deadline) {
      const tail = await nginx.tail(5);
      await stop();
      throw new Error(`nginx did not listen on ${port}: ${tail}`);
    }
    await sleep(50);
  }
  return { dir, port, pid: nginx.pid, stop };
}

/**
 * The rounds as one ceiling: the control's requests and window summed (its rate the sum's),
 * its µs per request the rounds' median, F the floors' median, and over F the median of the
 * rounds' own ratios (each round's control over the floor just before it).
 */
function summarize(
  version: string,
  load: CeilingLoad,
  placement: Placement,
  controls: readonly ControlRound[],
  floors: readonly GeneratorFloor[],
  wrk: GeneratorCeiling['crossCheck'],
): GeneratorCeiling {
  const requests = controls.reduce((a, c) => a + c.measured.requests, 0);
  const seconds = controls.reduce((a, c) => a + c.measured.durationSeconds, 0);
  const controlUs = median(controls.map((c) => c.generatorUs));
  // The latency of the round whose CPU per request is the median one (one round's distribution, not a mix).
  const middle = controls.find((c) => c.generatorUs === controlUs) ?? controls[controls.length >> 1]!;
  const targets = controls.flatMap((c) => (c.targetUs !== undefined ? [c.targetUs] : []));
  const percents = controls.flatMap((c) => (c.cpuPercentMean !== undefined ? [c.cpuPercentMean] : []));
  const parts = controls.flatMap((c) => windowRates(c.measured, load.windows));
  const floor: GeneratorFloor | undefined = floors.length
    ? {
        script: 'bench/k6/floor.js',
        requests: floors.reduce((a, f) => a + f.requests, 0),
        rate: Math.round((floors.reduce((a, f) => a + f.rate, 0) / floors.length) * 10) / 10,
        cpuPerRequestUs: Math.round(median(floors.map((f) => f.cpuPerRequestUs)) * 10) / 10,
        ...(floors.every((f) => f.cpuPercentMean !== undefined) ? { cpuPercentMean: Math.round(median(floors.map((f) => f.cpuPercentMean!)) * 10) / 10 } : {}),
      }
    : undefined;
  const rounds =
    floors.length === controls.length
      ? controls.map((c, i) => ({
          floorUs: floors[i]!.cpuPerRequestUs,
          controlUs: c.generatorUs,
          overFloor: round2(c.generatorUs / floors[i]!.cpuPerRequestUs),
        }))
      : [];
  return {
    target: `nginx ${version}`,
    vus: load.vus,
    durationSeconds: Math.round(seconds * 1000) / 1000,
    requests,
    rate: Math.round((requests / seconds) * 10) / 10,
    latencyMs: middle.measured.latencyMs,
    cpuPerRequestUs: Math.round(controlUs * 10) / 10,
    ...(targets.length ? { targetCpuPerRequestUs: Math.round(median(targets) * 10) / 10 } : {}),
    ...(percents.length ? { cpuPercentMean: Math.round(median(percents) * 10) / 10 } : {}),
    ...(wrk ? { crossCheck: wrk } : {}),
    ...(parts.length > 1 ? { windowRates: parts, cv: Math.round(coefficientOfVariation(parts) * 1000) / 1000 } : {}),
    cpuBoundRate: Math.round((1e6 / controlUs) * (placement.generator?.length ?? 1)),
    ...(floor ? { floor } : {}),
    ...(rounds.length ? { rounds, overFloor: round2(median(rounds.map((r) => r.overFloor))) } : {}),
  };
}

/**
 * One round of the control: k6/noop.js through the scripts' params() and record(), with the
 * cases' CHECK_EVERY (a case's k6 reads 1 in CHECK_EVERY bodies in its window: so does the control).
 */
async function measureControl(port: number, targetPid: number, placement: Placement, dir: string, load: CeilingLoad): Promise<ControlRound> {
  const k6 = startK6(
    'generator ceiling',
    { BASE_URL: `http://127.0.0.1:${port}`, VUS: load.vus, WARMUP: load.warmupSeconds, DURATION: load.durationSeconds, WINDOWS: load.windows, CHECK_EVERY },
    {
      script: SCRIPT,
      cores: placement.generator,
      workDir: dir,
      limitSeconds: load.warmupSeconds + load.durationSeconds + 30,
      stopGraceMs: 5_000,
    },
  );
  const sampler = new TreeSampler({ generator: k6.process.pid, target: targetPid }, 10);
  sampler.start();
  const measured = await k6.done.finally(() => sampler.stop());
  const generator = sampler.usage('generator', measured.window.from, measured.window.to);
  const target = sampler.usage('target', measured.window.from, measured.window.to);
  const perRequest = cpuPerRequest({ server: target, database: undefined, generator }, measured.requests);
  const failed = Object.values(measured.errors).reduce((a, b) => a + b, 0);
  if (failed > 0) throw new Error(`${failed} of ${measured.requests} requests to the no-op target failed`);
  if (perRequest?.generator === undefined) throw new Error("the control sent no request, or k6's CPU was not sampled");
  return { measured, generatorUs: perRequest.generator, targetUs: perRequest.server, cpuPercentMean: generator?.cpuPercentMean };
}

/** The floor's load: the control's VUs and window, or (rate-floor.ts) a case's VUs held to its rate by k6's --rps. */
export interface FloorLoad {
  readonly vus: number;
  readonly warmupSeconds: number;
  readonly durationSeconds: number;
  /** Requests per second k6 may send at most (k6 run --rps); absent: as fast as it can. */
  readonly rps?: number;
}

/**
 * The floor F: k6/floor.js (a plain http.get, k6's default options, no tag, check or custom
 * metric) against the no-op target, with the control's VUs and window. Its requests are not
 * tagged by phase (a tag is a cost the floor must not have): the window's share of them is
 * the whole load's × window / load, the rate being steady after the first fraction of a second.
 */
export async function measureFloor(target: Pick<NoopTarget, 'port' | 'pid'>, placement: Placement, dir: string, load: FloorLoad): Promise<GeneratorFloor> {
  const k6 = startK6(
    'generator floor',
    { BASE_URL: `http://127.0.0.1:${target.port}`, VUS: load.vus, WARMUP: load.warmupSeconds, DURATION: load.durationSeconds },
    {
      script: FLOOR_SCRIPT,
      cores: placement.generator,
      workDir: dir,
      limitSeconds: load.warmupSeconds + load.durationSeconds + 30,
      stopGraceMs: 5_000,
      summary: floorSummary,
      ...(load.rps !== undefined ? { args: ['--rps', String(Math.max(1, Math.round(load.rps)))] } : {}),
    },
  );
  const sampler = new TreeSampler({ generator: k6.process.pid, target: target.pid }, 10);
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
    ? `generator floor F: ${c.floor.cpuPerRequestUs} µs of k6 CPU per request (plain http.get, ${Math.round(c.floor.rate)} req/s); the control ${c.overFloor ?? '?'} × F` +
      `${c.rounds?.length ? ` (the median of ${c.rounds.length} rounds: ${c.rounds.map((r) => `${r.controlUs}/${r.floorUs} µs`).join(', ')})` : ''}\n`
    : '';
  return `${floor}generator ceiling: k6 reached ${Math.round(c.rate)} req/s against ${c.target} with ${c.vus} VUs at ${c.cpuPercentMean ?? '?'}% CPU, ${c.cpuPerRequestUs ?? '?'} µs of k6 CPU per request (${c.cpuBoundRate ?? '?'} req/s if its cores were all k6's)${c.cv !== undefined ? `, CV ${(c.cv * 100).toFixed(1)}% over ${c.windowRates?.length} parts of the window` : ''}${c.crossCheck ? `; ${c.crossCheck.name}: ${Math.round(c.crossCheck.rate)} req/s at ${c.crossCheck.cpuPerRequestUs} µs per request` : ''}; cases above ${CEILING_SHARE_WARNING * 100}% of ${Math.round(c.rate)} req/s are flagged`;
}
