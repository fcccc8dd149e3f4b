// Two implementations at once on a two-core machine: a command that walks every implementation
// (conformance, planted defects, fuzzing) runs itself once per implementation as child processes,
// FAIRBENCH_LANES at a time. Each child starts its own database servers on its own ports, so the
// children share nothing but the machine; a check is never timed against a bound that two lanes
// could break (those are benchmarks, run one at a time). Each child's output is kept whole and
// printed when it ends, so a reader sees one implementation's run as one block, not interleaved.
import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { onCleanup, shuttingDown } from '../cleanup.ts';
import { loadImplementations } from '../impl/manifest.ts';
import { resultsDir } from '../paths.ts';
import { numberArg } from './usage.ts';

const CPU_HOOK = new URL('./lane-cpu.ts', import.meta.url).href;

/** One child: its name (an implementation, say) and the arguments that select it. */
export interface Lane {
  readonly name: string;
  readonly args: readonly string[];
  /** The command it runs (default: runLanes' script). */
  readonly script?: string;
  /**
   * Lanes of one group never run at once: an implementation's lanes build it in its own
   * folder and start it from there, so two of them together would build over each other.
   */
  readonly group?: string;
  /** Lanes (by name) that must have ended before this one starts: a step whose output it reads. */
  readonly after?: readonly string[];
  /**
   * It mostly waits on timers (resilience: a stalled database, time-outs, idle clients; about a
   * third of a core): one such lane runs beside the `width` others rather than hold a slot.
   */
  readonly mostlyIdle?: true;
  /** Node's own options before the script (e.g. `--test` for a test file). */
  readonly nodeArgs?: readonly string[];
}

export interface LaneOutcome {
  readonly name: string;
  readonly exitCode: number;
  readonly seconds: number;
  /** CPU seconds of the lane's processes and those they waited for (lane-cpu.ts; not its containers'), where Linux says. */
  readonly cpuSeconds?: number;
  readonly logFile: string;
}

/** Set in each child: a child never splits itself again. */
const IN_LANE = 'FAIRBENCH_IN_LANE';

/**
 * How many children run at once: FAIRBENCH_LANES, else one per core up to two (each child is a
 * server, its databases and a client: more than two on two cores only queues them); 1 inside a lane.
 */
export function laneWidth(env: NodeJS.ProcessEnv = process.env, cores = os.availableParallelism()): number {
  if (env[IN_LANE] !== undefined) return 1;
  return numberArg('FAIRBENCH_LANES', env['FAIRBENCH_LANES'], Math.min(2, cores), 1, 8);
}

/**
 * Runs each lane's script (default `script`), at most `width` at once, and beside them (width 2
 * and up) one mostly idle lane: the first queued lane that fits and whose group is not running
 * starts whenever one ends. Prints each child's output whole when it
 * ends, with its exit code and time. Resolves with every outcome (a lane that fails does not
 * stop the others: CI wants every failure in one run).
 */
export async function runLanes(command: string, script: string, lanes: readonly Lane[], width = laneWidth()): Promise<LaneOutcome[]> {
  const logDir = path.join(resultsDir, 'logs', 'lanes');
  await mkdir(logDir, { recursive: true });
  console.log(
    `${command}: ${lanes.length} lanes (${lanes.map((l) => l.name).join(', ')}), ${width} at a time (FAIRBENCH_LANES); each lane's output follows when it ends`,
  );
  const waiting = [...lanes];
  const running = new Map<Lane, Promise<void>>();
  // The mostly idle lane beside the others, if one runs there.
  let beside: Lane | undefined;
  const outcomes: LaneOutcome[] = [];
  const ended = new Set<string>();
  const unknown = lanes.flatMap((l) => (l.after ?? []).filter((a) => !lanes.some((o) => o.name === a)));
  if (unknown.length > 0) throw new Error(`${command}: a lane waits for lanes that are not in the pool: ${unknown.join(', ')}`);
  while (waiting.length > 0 || running.size > 0) {
    const busy = new Set([...running.keys()].map((l) => l.group));
    const ready = (l: Lane) => (l.group === undefined || !busy.has(l.group)) && (l.after ?? []).every((a) => ended.has(a));
    const slotFree = running.size - (beside ? 1 : 0) < width;
    const besideFree = width >= 2 && beside === undefined;
    const fits = (l: Lane) => slotFree || (l.mostlyIdle === true && besideFree);
    // Once stopping (Ctrl-C, SIGTERM), no new lane starts: the running ones end, the rest are not run.
    const next = shuttingDown() ? -1 : waiting.findIndex((l) => fits(l) && ready(l));
    if (next >= 0) {
      const lane = waiting.splice(next, 1)[0]!;
      if (lane.mostlyIdle === true && besideFree) beside = lane;
      running.set(
        lane,
        runLane(command, lane.script ?? script, lane, logDir).then((o) => {
          outcomes.push(o);
          ended.add(lane.name);
          running.delete(lane);
          if (beside === lane) beside = undefined;
        }),
      );
    } else if (running.size > 0) await Promise.race(running.values());
    else if (shuttingDown()) break;
    else throw new Error(`${command}: lanes wait for each other: ${waiting.map((l) => l.name).join(', ')}`);
  }
  return outcomes;
}

async function runLane(command: string, script: string, lane: Lane, logDir: string): Promise<LaneOutcome> {
  const logFile = path.join(logDir, `${command}-${lane.name.replaceAll('/', '-')}.log`);
  const log = createWriteStream(logFile);
  const started = performance.now();
  console.log(`  lane ${lane.name} started: ${command} ${lane.args.join(' ')}`);
  const cpuFile = path.join(logDir, `${command}-${lane.name.replaceAll('/', '-')}.cpu`);
  await rm(cpuFile, { force: true });
  const child = spawn(process.execPath, [...process.execArgv, '--import', CPU_HOOK, ...(lane.nodeArgs ?? []), script, ...lane.args], {
    env: { ...process.env, [IN_LANE]: lane.name, FAIRBENCH_LANE_CPU_FILE: cpuFile, FORCE_COLOR: process.stdout.isTTY ? '1' : '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number>((resolve) => child.on('close', (code, signal) => resolve(code ?? (signal ? 128 : 1))));
  // Ctrl-C reaches the children through the terminal's process group; a SIGTERM to this
  // process alone is passed on, and each child stops what it started before exiting.
  const forget = onCleanup(`lane ${lane.name}`, async () => {
    if (child.exitCode === null) child.kill('SIGTERM');
    await exited;
  });
  const chunks: Buffer[] = [];
  for (const stream of [child.stdout, child.stderr]) {
    stream.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      log.write(chunk);
    });
  }
  const exitCode = await exited;
  forget();
  await new Promise<void>((resolve) => log.end(resolve));
  const seconds = Math.round((performance.now() - started) / 1000);
  const cpu = Number(await readFile(cpuFile, 'utf8').catch(() => 'NaN'));
  const cpuSeconds = Number.isFinite(cpu) ? Math.round(cpu) : undefined;
  process.stdout.write(
    `\n──── lane ${lane.name}: exit ${exitCode} after ${seconds} s${cpuSeconds === undefined ? '' : `, ${cpuSeconds} CPU-s`} (${path.relative(process.cwd(), logFile)}) ────\n`,
  );
  process.stdout.write(Buffer.concat(chunks));
  return { name: lane.name, exitCode, seconds, ...(cpuSeconds === undefined ? {} : { cpuSeconds }), logFile };
}

/** The closing lines of a split run: each lane's verdict and time; true when every lane passed. */
export function reportLanes(command: string, outcomes: readonly LaneOutcome[]): boolean {
  console.log(`\n${command} by lane:`);
  for (const o of outcomes)
    console.log(`  ${o.exitCode === 0 ? 'ok  ' : 'FAIL'} ${o.name} (exit ${o.exitCode}, ${o.seconds} s; ${path.relative(process.cwd(), o.logFile)})`);
  const failed = outcomes.filter((o) => o.exitCode !== 0);
  console.log(`${command}: ${outcomes.length - failed.length} lanes passed, ${failed.length} failed`);
  return failed.length === 0;
}

/**
 * The lanes of a command run over implementations: one per implementation asked for (default:
 * every folder under impl/), each child given `--impl <name>` and the command's other arguments;
 * null when the command should run in this process (one implementation, or one lane wide).
 */
export async function implementationLanes(impls: readonly string[] | undefined, otherArgs: readonly string[], width = laneWidth()): Promise<Lane[] | null> {
  if (width < 2) return null;
  const names = impls ?? (await loadImplementations()).map((i) => i.manifest.name);
  if (names.length < 2) return null;
  return names.map((name) => ({ name, group: name, args: ['--impl', name, ...otherArgs] }));
}
