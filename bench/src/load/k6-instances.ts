// One repetition's load from several k6 instances, one on each generator host of a topology,
// sharing the scenario through k6's execution segments (instance i of n runs the segment
// i/n:(i+1)/n of the sequence 0,1/n,…,1: its share of the VUs, arrivals or iterations).
// They start paused and are resumed through k6's REST API, as k6-operator's starter does, but
// at one moment on every host's clock rather than as the commands arrive: a command over SSH
// takes 0.1-0.5 s to arrive, which would open one instance's measured window that much after
// the other's. The skew that remains is recorded with each instance. Each
// writes its summary and its raw samples (--out csv); the merge (k6-merge.ts) is exact:
// counters summed, every percentile recomputed from all instances' samples.
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { onHost, type Host } from '@fairbench/harness/hosts/host.ts';
import { runCommand, startProcess, type ManagedProcess } from '@fairbench/harness/process.ts';
import { freePort } from '@fairbench/harness/ports.ts';
import { LoadFailure } from './failure.ts';
import { envArgs, GENERATOR_ENV, measuredFromK6, OK_EXIT_CODES, STOP_GRACE_MS, type K6Options, type K6Summary, type StartedLoad } from './k6.ts';
import { mergeK6Summaries } from './k6-merge.ts';
import { k6Binary } from '../paths.ts';

/** Each instance's execution segment, and the sequence they share. */
export function executionSegments(n: number): { segments: string[]; sequence: string } {
  if (!Number.isInteger(n) || n < 1) throw new Error(`execution segments for ${n} instances`);
  const point = (i: number) => (i === 0 ? '0' : i === n ? '1' : `${i}/${n}`);
  return {
    segments: Array.from({ length: n }, (_, i) => `${point(i)}:${point(i + 1)}`),
    sequence: Array.from({ length: n + 1 }, (_, i) => point(i)).join(','),
  };
}

// An instance initialises its VUs before it answers as paused: 60 s covers thousands of VUs here.
const READY_TIMEOUT_MS = 60_000;

interface Instance {
  readonly host: Host;
  readonly segment: string;
  readonly apiPort: number;
  readonly summaryPath: string;
  readonly samplesPath: string;
  readonly process: ManagedProcess;
}

/**
 * Starts one k6 instance on each of `generators` for case `id`, resumes them together
 * once all are ready, and resolves `done` with the merged measurement. The time limit
 * counts from the resume; a limit reached stops every instance (SIGINT: each still writes
 * its summary, and the merged part measured until then is kept).
 */
export async function startK6Instances(
  id: string,
  env: Readonly<Record<string, string | number>>,
  generators: readonly Host[],
  opts: Omit<K6Options, 'cores'>,
): Promise<StartedLoad> {
  const { segments, sequence } = executionSegments(generators.length);
  const stamp = `${process.pid}-${Date.now()}`;
  const instances: Instance[] = [];
  try {
    for (const [i, host] of generators.entries()) {
      const apiPort = await freePort();
      const summaryPath = join(opts.workDir, `k6-${stamp}-${i}.json`);
      const samplesPath = join(opts.workDir, `k6-${stamp}-${i}.csv`);
      const vars: Record<string, string | number> = { ...env, SUMMARY_PATH: summaryPath };
      const args = [
        'run',
        '--quiet',
        '--no-color',
        '--paused',
        // The REST API on the host's loopback: only resume() below talks to it.
        '--address',
        `127.0.0.1:${apiPort}`,
        '--execution-segment',
        segments[i]!,
        '--execution-segment-sequence',
        sequence,
        '--out',
        `csv=${samplesPath}`,
        ...envArgs(vars),
        opts.script,
      ];
      const process_ = startProcess({
        name: `k6 ${id} [${segments[i]}]`,
        command: k6Binary,
        args,
        host,
        env: { ...process.env, ...GENERATOR_ENV },
        ownEnv: GENERATOR_ENV,
        logFile: summaryPath.replace(/\.json$/, '.log'),
      });
      instances.push({ host, segment: segments[i]!, apiPort, summaryPath, samplesPath, process: process_ });
    }
    const latencies = await Promise.all(instances.map(waitPaused));
    // The resume's moment: far enough ahead that the slowest host's command arrives before it.
    const at = Date.now() + Math.min(5_000, Math.max(100, 3 * Math.max(...latencies)));
    await Promise.all(instances.map((inst) => resumeAt(inst, at)));
  } catch (error) {
    await Promise.all(instances.map((inst) => inst.process.stop()));
    await Promise.all(instances.map(removeFiles));
    throw new LoadFailure('generator', `the k6 instances did not start: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
  }
  const done = (async () => {
    let stopped = false;
    const timer = setTimeout(() => {
      stopped = true;
      for (const inst of instances) void inst.process.stop({ signal: 'SIGINT', timeoutMs: opts.stopGraceMs ?? STOP_GRACE_MS });
    }, opts.limitSeconds * 1000);
    const codes = await Promise.all(instances.map((inst) => inst.process.exited)).finally(() => clearTimeout(timer));
    try {
      const summaries = await Promise.all(
        instances.map((inst) =>
          readFile(inst.summaryPath, 'utf8')
            .then((t) => JSON.parse(t) as K6Summary)
            .catch(() => undefined),
        ),
      );
      const missing = instances.filter((_, i) => summaries[i] === undefined).map((inst) => `${inst.host.name} [${inst.segment}]`);
      const measured = missing.length === 0 ? await measuredOf(instances, summaries as K6Summary[]) : undefined;
      const tails = async () => (await Promise.all(instances.map(async (inst) => `${inst.host.name}:\n${await inst.process.tail(8)}`))).join('\n');
      if (stopped)
        throw new LoadFailure('time-limit', `the k6 instances did not finish within the case's time limit of ${opts.limitSeconds} s and were stopped`, {
          ...(measured ? { measured } : {}),
          detail: await tails(),
        });
      const bad = codes.findIndex((code) => !OK_EXIT_CODES.includes(code));
      if (bad >= 0)
        throw new LoadFailure('generator', `k6 on ${instances[bad]!.host.name} exited with ${codes[bad] ?? 'a signal'}`, {
          ...(measured ? { measured } : {}),
          detail: await tails(),
        });
      if (!measured) throw new LoadFailure('generator', `no usable summary from ${missing.join(', ')}`, { detail: await tails() });
      return measured;
    } finally {
      await Promise.all(instances.map(removeFiles));
    }
  })();
  return { process: instances[0]!.process, processes: instances.map((i) => i.process), done };
}

/** The merged measurement, with what each instance sent. */
async function measuredOf(instances: readonly Instance[], summaries: readonly K6Summary[]) {
  for (const s of summaries) if (s.setup_data?.measureFrom === undefined || s.measureUntil === undefined) return undefined;
  const merged = measuredFromK6(await mergeK6Summaries(instances.map((inst, i) => ({ summary: summaries[i]!, samplesFile: inst.samplesPath }))));
  // How far after the first each instance's measured window opened: the resume's skew.
  const opened = summaries.map((s) => s.setup_data!.measureFrom!);
  const first = Math.min(...opened);
  const generators = instances.map((inst, i) => ({
    host: inst.host.name,
    segment: inst.segment,
    requests: measuredFromK6(summaries[i]!).requests,
    windowOffsetMs: opened[i]! - first,
  }));
  const skew = Math.max(...opened) - first;
  const notes = skew > 0.01 * merged.durationSeconds * 1000 ? [`the instances' measured windows opened ${skew} ms apart (over 1% of the window)`] : [];
  return { ...merged, generatorInstances: generators, notes: [...merged.notes, ...notes] };
}

/** Polls the instance's REST API until it answers as paused (its VUs initialised); the last poll's round trip in ms. */
async function waitPaused(inst: Instance): Promise<number> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    if (!inst.process.alive()) throw new Error(`k6 on ${inst.host.name} exited before it was ready:\n${await inst.process.tail(20)}`);
    const sent = Date.now();
    const status = await onInstanceHost(inst, k6Binary, ['status', '--address', `127.0.0.1:${inst.apiPort}`]).catch(() => '');
    if (/paused: "?true/.test(status)) return Date.now() - sent;
    if (Date.now() > deadline) throw new Error(`k6 on ${inst.host.name} was not ready after ${READY_TIMEOUT_MS / 1000} s`);
    await sleep(100);
  }
}

/** A short command on the instance's host, unpinned (its REST API listens on that host's loopback); its output. */
async function onInstanceHost(inst: Instance, command: string, args: readonly string[]): Promise<string> {
  const [c, a] = onHost({ ...inst.host, cores: null }, command, args);
  return (await runCommand(c, a, { env: { ...process.env, K6_NO_USAGE_REPORT: 'true' }, timeoutMs: 10_000 })).stdout;
}

/** `k6 resume` on the instance's host when its clock reads `at` (epoch ms): the wait happens there, not here. */
function resumeAt(inst: Instance, at: number): Promise<string> {
  const wait = `d=$((${at} - $(date +%s%3N))); if [ "$d" -gt 0 ]; then sleep "$((d / 1000)).$(printf %03d $((d % 1000)))"; fi`;
  return onInstanceHost(inst, 'sh', ['-c', `${wait}; exec ${k6Binary} resume --address 127.0.0.1:${inst.apiPort}`]);
}

async function removeFiles(inst: Instance): Promise<void> {
  await rm(inst.summaryPath, { force: true });
  await rm(inst.samplesPath, { force: true });
}
