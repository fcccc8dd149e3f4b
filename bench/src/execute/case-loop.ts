// The cases of a run, one after another: the implementations restarted before each case
// (before each repetition of a case that ends in overload: freshServerEachRepetition),
// warmed by unrecorded iterations until their rates are steady (warm-up.ts), then the
// repetitions alternating between them (A B, B A, …; or, switched, as pairs of slices of
// one load: switchedRepetitions), each on data reset before it
// and once every server of the case and the database are idle (settle.ts), the load
// (k6, or the baseline client for a database-alone case) sampled with the process trees
// at 10 Hz. A case that fails — its load outran the limit, k6 or the baseline
// client exited with an error, the implementation did not start or exited, the database
// stopped answering — is recorded with its failure and what it measured, and the loop goes
// on with the next case. Everything it starts comes from `deps`, so that tests can run it
// on small fake servers without a database.
import { setTimeout as sleep } from 'node:timers/promises';
import type { ManagedProcess } from '@fairbench/harness/process.ts';
import type { PlannedCase } from '../plan/api-module.ts';
import { cpuPerRequest } from '../load/cpu-per-request.ts';
import { asFailure, emptyWindow, failure, LoadFailure } from '../load/failure.ts';
import type { Measured, StartedLoad } from '../load/k6.ts';
import { TreeSampler, type Usage } from '../load/proc-sampler.ts';
import type { CaseLoopEvents } from './loop-events.ts';
import type { Settled } from './settle.ts';
import { interleavedOrder } from '../plan/interleave.ts';
import { isSteady, type WarmupIterations } from '../plan/warm-up.ts';
import {
  CEILING_SHARE_WARNING,
  NATIVE_CLIENT_BOUND_CPU_PERCENT,
  isDatabaseAlone,
  tierOf,
  type BenchCase,
  type CaseCrossCheck,
  type CaseFloorAtRate,
  type CaseFailure,
  type CaseWarmup,
  type Repetition,
} from '../record/result-document.ts';

/** k6 (or the baseline client) busier than this share of its core measured itself, not the server. */
const GENERATOR_BOUND_CPU_PERCENT = 80;

/** A started implementation, as the loop needs it. */
export interface LoopServer {
  readonly baseUrl: string;
  readonly process: ManagedProcess;
  stop(): Promise<void>;
}

export interface CaseLoopDeps<C extends PlannedCase> {
  /** Implementation names, in the order given. */
  readonly impls: readonly string[];
  readonly repeat: number;
  /** Where the loop tells what it does (loop-events.ts; progress.ts listens); absent: told to no one. */
  readonly events?: CaseLoopEvents;
  /** Case number of the first case (1 unless a resumed run skips the finished ones). */
  readonly firstStep?: number;
  /** One load's time limit; `first`: a served case's first load (its longer warm-up). */
  limitSeconds(c: C, first: boolean): number;
  startServer(impl: string): Promise<LoopServer>;
  /** Starts k6 for one repetition (or warm-up iteration) of a benchmarked case against `server`; `first`: the server's first load since it started. */
  startLoad(c: C, server: LoopServer, limitSeconds: number, first: boolean): StartedLoad | Promise<StartedLoad>;
  /** The warm-up of a served case's first load when it is longer than the others' (recorded in that load). */
  readonly firstWarmupSeconds?: number;
  /** Unrecorded iterations before a served case's repetitions (warm-up.ts); absent or max 0: none. */
  readonly warmupIterations?: WarmupIterations;
  /** Starts the database-alone client for one repetition of a baseline case. */
  startBaseline(c: C, limitSeconds: number): Promise<StartedLoad>;
  /** Restores the seeded data before a repetition. */
  reset?(): Promise<void>;
  /** The API's conditions on the data after a repetition (e.g. TPC-C's consistency): each violation, described. */
  afterRepetition?(c: C): Promise<readonly string[]>;
  /** Why the database does not answer, or undefined when it does. */
  databaseDown(): Promise<string | undefined>;
  /** The database server's pid, to sample it. */
  readonly databasePid?: number | undefined;
  /** Waits until these process trees are idle (bench/src/execute/settle.ts); absent: repetitions start at once. */
  settle?(roots: readonly number[]): Promise<Settled>;
  /** The cross-check generator once after a case's repetitions, against the same running server; undefined when the case has none. */
  crossCheck?(c: C, server: LoopServer): Promise<CaseCrossCheck | undefined>;
  /** A bare request's cost to k6 at the rate of an implementation's repetitions (rate-floor.ts), once after the case's servers stopped, printed under `label`; undefined when the case has none. */
  floorAtRate?(c: C, repetitions: readonly Repetition[], label: string): Promise<CaseFloorAtRate | undefined>;
  /** The generator's ceiling on this machine (req/s, bench/src/execute/ceiling.ts): each served repetition records its share of it. */
  readonly ceilingRate?: number | undefined;
  /**
   * Switched slices (bench/k6/measure.js target()): where the API's script can send them and
   * two implementations are compared, a served case's repetitions are `pairs` pairs of slices
   * of one load, which `start` starts, slice i going to servers[order[i]] (order: an index per
   * slice). Absent: each repetition is a load of its own.
   */
  readonly switched?: {
    readonly pairs: number;
    /** The planned seconds of one switched load (its warm-up and slices): the progress's ETA. */
    readonly seconds: number;
    start(c: C, servers: readonly LoopServer[], order: string): StartedLoad | Promise<StartedLoad>;
  };
  /** Names the random order of each round (interleave.ts: randomized interleaved trials); absent: A B, B A alternation. */
  readonly orderKey?: string;
  /** Called after every case with its record per implementation (in `impls` order). */
  recorded(c: C, records: ReadonlyMap<string, BenchCase>): Promise<void>;
  /** True once the run is being interrupted (Ctrl-C): the case in progress is not recorded. */
  stopping(): boolean;
}

/** Thrown when the run is interrupted: the case in progress is dropped, not recorded as failed. */
export class Interrupted extends Error {
  constructor() {
    super('interrupted');
    this.name = 'Interrupted';
  }
}

/** The order of the implementations in repetition r (1-based): as given in odd repetitions, reversed in even ones. */
export function roundOrder<T>(impls: readonly T[], r: number): T[] {
  return r % 2 === 1 ? [...impls] : [...impls].reverse();
}

/** The implementations' order in round r of case c: randomized interleaved trials where the run names them (deps.orderKey), else A B, B A. */
function orderOf<C extends PlannedCase>(deps: CaseLoopDeps<C>, c: C, r: number): string[] {
  return deps.orderKey !== undefined ? interleavedOrder(deps.impls, r, `${deps.orderKey}|${c.id}`) : roundOrder(deps.impls, r);
}

/** Runs `cases`; every case is handed to deps.recorded (measured or failed) before the next begins. */
export async function runCases<C extends PlannedCase>(cases: readonly C[], deps: CaseLoopDeps<C>): Promise<void> {
  let step = (deps.firstStep ?? 1) - 1;
  for (const c of cases) {
    if (isDatabaseAlone(c.protocol)) {
      step++;
      const outcome = await runBaselineCase(c, step, deps);
      await deps.recorded(c, new Map(deps.impls.map((name) => [name, record(c, outcome)])));
    } else {
      const outcomes = await runServedCase(c, step + 1, deps);
      step += deps.impls.length;
      await deps.recorded(c, new Map(deps.impls.map((name) => [name, record(c, outcomes.get(name)!)])));
    }
  }
}

interface Outcome {
  repetitions: Repetition[];
  failure?: CaseFailure;
  crossCheck?: CaseCrossCheck;
  floorAtRate?: CaseFloorAtRate;
  warmup?: CaseWarmup;
}

function record(c: PlannedCase, o: Outcome): BenchCase {
  return {
    id: c.id,
    protocol: c.protocol,
    tier: tierOf(c),
    model: c.model,
    parameters: c.parameters,
    repetitions: o.repetitions,
    ...(o.failure ? { failure: o.failure } : {}),
    ...(o.crossCheck ? { crossCheck: o.crossCheck } : {}),
    ...(o.floorAtRate ? { floorAtRate: o.floorAtRate } : {}),
    ...(o.warmup ? { warmup: o.warmup } : {}),
  };
}

/** The database-alone case: measured once, recorded in every implementation's document. */
async function runBaselineCase<C extends PlannedCase>(c: C, step: number, deps: CaseLoopDeps<C>): Promise<Outcome> {
  const limitSeconds = deps.limitSeconds(c, false);
  const outcome: Outcome = { repetitions: [] };
  const down = await deps.databaseDown();
  if (down) outcome.failure = failure('database', down);
  for (let r = 1; r <= deps.repeat && !outcome.failure; r++) {
    deps.events?.emit('load-begin', { step, repetition: r, label: c.id });
    const result = await repetition(deps, r, undefined, [], c, async () => deps.startBaseline(c, limitSeconds), 'baseline');
    deps.events?.emit('load-end');
    if (deps.stopping()) throw new Interrupted();
    if (result.rep) outcome.repetitions.push(result.rep);
    if (result.failure) outcome.failure = { ...result.failure, repetition: r };
  }
  deps.events?.emit('case-end', { label: c.id, repetitions: outcome.repetitions, failure: outcome.failure });
  return outcome;
}

/** A benchmarked case: every implementation restarted, the repetitions alternating; one failing implementation does not stop the others. */
async function runServedCase<C extends PlannedCase>(c: C, firstStep: number, deps: CaseLoopDeps<C>): Promise<Map<string, Outcome>> {
  const { impls } = deps;
  const outcomes = new Map<string, Outcome>(impls.map((name) => [name, { repetitions: [] }]));
  const servers = new Map<string, LoopServer>();
  const label = (name: string) => (impls.length > 1 ? `${c.id} · ${name}` : c.id);
  try {
    const down = await deps.databaseDown();
    for (const name of impls) {
      if (down) {
        outcomes.get(name)!.failure = failure('database', down);
        continue;
      }
      // Restarted before every case, as the paper did: no case inherits another's heap or JIT state.
      await start(servers, name, outcomes.get(name)!, deps);
    }
    const fresh = c.freshServerEachRepetition === true;
    const warming = (deps.warmupIterations?.max ?? 0) > 0 && !fresh;
    if (warming) await warmUp(c, firstStep, deps, servers, outcomes, label);
    const switching = deps.switched !== undefined && impls.length === 2 && !fresh && impls.every((n) => servers.has(n) && !outcomes.get(n)!.failure);
    if (switching) await switchedRepetitions(c, firstStep, deps, servers, outcomes);
    for (let r = 1; r <= deps.repeat && !switching; r++) {
      for (const [place, name] of orderOf(deps, c, r).entries()) {
        const outcome = outcomes.get(name)!;
        if (fresh && r > 1 && !outcome.failure) await start(servers, name, outcome, deps);
        const server = servers.get(name);
        if (!server || outcome.failure) continue;
        // Without warm-up iterations the first repetition is the freshly started implementation's first load (bench/profiles.yaml: firstWarmupSeconds).
        const first = (r === 1 || fresh) && !warming;
        deps.events?.emit('load-begin', { step: firstStep + impls.indexOf(name), repetition: r, label: label(name) });
        const result = await repetition(
          deps,
          r,
          server,
          [...servers.values()],
          c,
          async () => deps.startLoad(c, server, deps.limitSeconds(c, first), first),
          'generator',
          name,
        );
        deps.events?.emit('load-end');
        if (deps.stopping()) throw new Interrupted();
        const warmed = result.rep && firstLoad(result.rep, first, deps);
        if (warmed) outcome.repetitions.push(impls.length > 1 ? { ...warmed, order: place + 1 } : warmed);
        if (result.failure) outcome.failure = { ...result.failure, repetition: r };
        // A failed server must not load the machine while the others go on; an overloaded one's
        // abandoned work must not run beside the next repetition, another implementation's included.
        if (result.failure || fresh) await drop(servers, name);
      }
    }
    if (deps.crossCheck)
      for (const name of impls) {
        const server = servers.get(name);
        if (!server || outcomes.get(name)!.failure) continue;
        // A cross-check that fails takes nothing from the case: k6's numbers stand without it.
        try {
          const checked = await deps.crossCheck(c, server);
          if (checked) outcomes.get(name)!.crossCheck = checked;
        } catch (error) {
          console.log(`  ${label(name)}: no cross-check (${error instanceof Error ? error.message.split('\n')[0] : String(error)})`);
        }
        if (deps.stopping()) throw new Interrupted();
      }
  } finally {
    for (const server of servers.values()) await server.stop();
  }
  // With the servers stopped, as the ceiling's floor: a failed floor takes nothing from the case.
  if (deps.floorAtRate)
    for (const name of impls) {
      const outcome = outcomes.get(name)!;
      if (outcome.failure || !outcome.repetitions.length) continue;
      try {
        const floor = await deps.floorAtRate(c, outcome.repetitions, label(name));
        if (floor) outcome.floorAtRate = floor;
      } catch (error) {
        console.log(`  ${label(name)}: no k6 floor at the case's rate (${error instanceof Error ? error.message.split('\n')[0] : String(error)})`);
      }
      if (deps.stopping()) throw new Interrupted();
    }
  for (const name of impls) {
    const { repetitions, failure, warmup } = outcomes.get(name)!;
    deps.events?.emit('case-end', { label: label(name), repetitions, failure, warmup });
  }
  return outcomes;
}

/**
 * The warm-up iterations of a served case: rounds alternating like the repetitions, each
 * implementation loaded (the same load as a repetition, the same reset and idle wait
 * before it) until its rate is steady or it has had `max` iterations. Recorded apart from
 * the repetitions; a failure in one is the case's failure for that implementation.
 */
async function warmUp<C extends PlannedCase>(
  c: C,
  firstStep: number,
  deps: CaseLoopDeps<C>,
  servers: Map<string, LoopServer>,
  outcomes: Map<string, Outcome>,
  label: (name: string) => string,
): Promise<void> {
  const { max, steadyWithinPercent } = deps.warmupIterations!;
  const warming = new Set(deps.impls.filter((name) => servers.has(name)));
  for (const name of warming) outcomes.get(name)!.warmup = { iterations: [], steady: false };
  for (let k = 1; k <= max && warming.size > 0; k++) {
    for (const name of roundOrder(deps.impls, k)) {
      const server = servers.get(name);
      const outcome = outcomes.get(name)!;
      if (!server || !warming.has(name)) continue;
      const first = k === 1;
      deps.events?.emit('warmup-begin', { step: firstStep + deps.impls.indexOf(name), iteration: k, max, label: label(name) });
      const result = await repetition(
        deps,
        k,
        server,
        [...servers.values()],
        c,
        async () => deps.startLoad(c, server, deps.limitSeconds(c, first), first),
        'generator',
        name,
      );
      deps.events?.emit('load-end');
      if (deps.stopping()) throw new Interrupted();
      const warmup = outcome.warmup!;
      if (result.rep) warmup.iterations.push(firstLoad(result.rep, first, deps));
      if (result.failure) {
        outcome.failure = { ...result.failure, warmupIteration: k };
        warming.delete(name);
        await drop(servers, name);
        continue;
      }
      if (
        isSteady(
          warmup.iterations.map((i) => i.throughput),
          steadyWithinPercent,
        )
      ) {
        warmup.steady = true;
        warming.delete(name);
      }
    }
  }
  for (const name of warming) {
    const rates = outcomes
      .get(name)!
      .warmup!.iterations.map((i) => Math.round(i.throughput))
      .join(', ');
    console.log(`  ${label(name)}: still rising after ${max} warm-up iterations (${rates} req/s); measuring anyway (recorded: steady false)`);
  }
  for (const name of deps.impls) {
    const warmup = outcomes.get(name)!.warmup;
    if (warmup && warmup.iterations.length === 0) delete outcomes.get(name)!.warmup;
  }
}

/** A freshly started implementation's first load records its longer warm-up (options.firstWarmupSeconds). */
function firstLoad<C extends PlannedCase>(rep: Repetition, first: boolean, deps: CaseLoopDeps<C>): Repetition {
  return first && deps.firstWarmupSeconds !== undefined ? { ...rep, warmupSeconds: deps.firstWarmupSeconds } : rep;
}

/**
 * A comparison's repetitions as switched slices of one load (bench/k6/measure.js target()): each
 * repetition r a pair of adjacent slices, one per implementation in the round's random order
 * (interleave.ts), so that no slice pays a k6 start and a pair's two slices are seconds
 * closer than separate loads could be. Each slice is recorded as its implementation's
 * repetition r: k6's figures of the slice, and every process tree's CPU over exactly the
 * slice's window (the sampler interpolated at its ends). A load that fails fails the case
 * for both implementations, with the slices it measured.
 */
async function switchedRepetitions<C extends PlannedCase>(
  c: C,
  firstStep: number,
  deps: CaseLoopDeps<C>,
  servers: Map<string, LoopServer>,
  outcomes: Map<string, Outcome>,
): Promise<void> {
  const { impls } = deps;
  const running = impls.map((name) => servers.get(name)!);
  const order = Array.from({ length: deps.switched!.pairs }, (_, k) =>
    orderOf(deps, c, k + 1)
      .map((name) => impls.indexOf(name))
      .join(''),
  ).join('');
  const settled = await settleAll(deps, running);
  deps.events?.emit('load-begin', {
    step: firstStep,
    repetition: 1,
    label: `${c.id} · ${impls.join(' ⇄ ')}: ${deps.switched!.pairs} pairs of switched slices`,
    switched: { steps: impls.map((_, k) => firstStep + k), seconds: deps.switched!.seconds },
  });
  let load: StartedLoad;
  try {
    load = await deps.switched!.start(c, running, order);
  } catch (error) {
    const f = await blameDatabase(deps, asFailure('generator', error));
    for (const name of impls) outcomes.get(name)!.failure = { ...f, repetition: 1 };
    deps.events?.emit('load-end');
    return;
  }
  const roots: Record<string, number | number[]> = { generator: (load.processes ?? [load.process]).map((p) => p.pid) };
  running.forEach((server, side) => (roots[`server${side}`] = server.process.pid));
  if (deps.databasePid !== undefined) roots['database'] = deps.databasePid;
  const { sampler, measured, failure: loadFailed } = await sampled(load, roots, 'generator');
  let failed = loadFailed;
  deps.events?.emit('load-end');
  if (deps.stopping()) throw new Interrupted();
  for (const [side, server] of running.entries())
    if (!server.process.alive())
      failed = failure(
        'implementation',
        `${impls[side]} exited during the switched slices${failed ? `; ${failed.reason}` : ''}`,
        await server.process.tail(10),
      );
  if (measured && !measured.slices && !failed)
    failed = failure('generator', 'the script wrote no switched slices (its API says it can: api.yaml bench.switching)');
  if (failed) failed = await blameDatabase(deps, failed);
  // A case of one request type: each slice's figures are that type's too.
  const single = c.requestTypes?.length === 1 ? c.requestTypes[0]! : undefined;
  for (const [i, slice] of (measured?.slices ?? []).entries()) {
    const name = impls[slice.side]!;
    const m = slice.measured;
    const typed: Measured =
      single && m.requests > 0
        ? {
            ...m,
            requestTypes: {
              [single]: {
                requests: m.requests,
                errors: sum(m.errors),
                throughput: m.throughput,
                latencyMs: m.latencyMs,
                ...(m.serverMs ? { serverMs: m.serverMs } : {}),
              },
            },
          }
        : m;
    const usage = (tree: string) => sampler.usageBetween(tree === 'server' ? `server${slice.side}` : tree, m.window.from, m.window.to);
    const rep = toRepetition(
      Math.floor(i / 2) + 1,
      new Date(m.window.from),
      typed,
      usage,
      c.requestTypes ?? [],
      failed !== undefined,
      deps.ceilingRate,
      false,
      settled,
    );
    outcomes.get(name)!.repetitions.push({ ...rep, order: (i % 2) + 1, slice: i + 1 });
  }
  if (failed) for (const name of impls) outcomes.get(name)!.failure = { ...failed, repetition: 1 };
}

const sum = (xs: Record<string, number>) => Object.values(xs).reduce((a, b) => a + b, 0);

/** Starts an implementation for the case (again, before each repetition of a freshServerEachRepetition case); one that does not start fails the case for it. */
async function start<C extends PlannedCase>(servers: Map<string, LoopServer>, name: string, outcome: Outcome, deps: CaseLoopDeps<C>): Promise<void> {
  try {
    servers.set(name, await deps.startServer(name));
  } catch (error) {
    if (deps.stopping()) throw new Interrupted();
    outcome.failure = asFailure('implementation', error, `${name} did not start: `);
  }
}

/** Stops an implementation for the rest of the case, or until start() brings it back. */
async function drop(servers: Map<string, LoopServer>, name: string): Promise<void> {
  const server = servers.get(name);
  servers.delete(name);
  await server?.stop();
}

/**
 * One repetition: reset the data, wait until the case's servers (`running`) and the
 * database are idle, start the load, sample while it runs. A failure comes
 * back with whatever was measured (the repetition then marked partial); a database that
 * stopped answering is named as the cause whatever failed first.
 */
async function repetition<C extends PlannedCase>(
  deps: CaseLoopDeps<C>,
  index: number,
  server: LoopServer | undefined,
  running: readonly LoopServer[],
  c: C,
  start: () => Promise<StartedLoad>,
  loadKind: 'generator' | 'baseline',
  name?: string,
): Promise<{ rep?: Repetition; failure?: CaseFailure }> {
  try {
    await deps.reset?.();
  } catch (error) {
    return { failure: await blameDatabase(deps, asFailure('database', error, 'resetting the data failed: ')) };
  }
  const settled = await settleAll(deps, running);
  if (settled && !settled.idle)
    console.log(
      `  ${c.id}${name ? ` · ${name}` : ''}: the servers and the database still used ${settled.cpuPercent}% of a core after ${settled.seconds} s; measuring anyway (noted)`,
    );
  const startedAt = new Date();
  let load: StartedLoad;
  try {
    load = await start();
  } catch (error) {
    return { failure: await blameDatabase(deps, asFailure(loadKind, error)) };
  }
  const generators = (load.processes ?? [load.process]).filter((p) => !p.remote).map((p) => p.pid);
  const roots: Record<string, number | number[]> = generators.length ? { generator: generators } : {};
  if (server && !server.process.remote) roots['server'] = server.process.pid;
  if (deps.databasePid !== undefined) roots['database'] = deps.databasePid;
  const { sampler, measured, failure: loadFailed } = await sampled(load, roots, loadKind);
  let failed = loadFailed;
  // An implementation that exited mid-window leaves k6 counting refused connections: not a measurement.
  if (server && !server.process.alive()) {
    const code = await Promise.race([server.process.exited, sleep(1_000).then(() => '?')]);
    failed = failure(
      'implementation',
      `${name ?? 'the implementation'} exited during the repetition (exit code ${code ?? 'by a signal'})${failed ? `; ${failed.reason}` : ''}`,
      await server.process.tail(10),
    );
  }
  if (measured && !failed) failed = emptyWindow(measured);
  if (failed) failed = await blameDatabase(deps, failed);
  let rep = measured
    ? toRepetition(
        index,
        startedAt,
        measured,
        (tree) => sampler.usage(tree, measured.window.from, measured.window.to),
        c.requestTypes ?? [],
        failed !== undefined,
        server ? deps.ceilingRate : undefined,
        tierOf(c) === 'native',
        settled,
      )
    : undefined;
  if (rep && !failed) rep = await checked(deps, c, rep);
  return { ...(rep ? { rep } : {}), ...(failed ? { failure: failed } : {}) };
}

/** Waits until the servers `running` and the database are idle (deps.settle); undefined when nothing waits. */
async function settleAll<C extends PlannedCase>(deps: CaseLoopDeps<C>, running: readonly LoopServer[]): Promise<Settled | undefined> {
  // A process on another machine (over SSH) is not in this machine's /proc: neither waited for nor sampled.
  const roots = [...running.filter((s) => !s.process.remote).map((s) => s.process.pid), ...(deps.databasePid !== undefined ? [deps.databasePid] : [])];
  return deps.settle && roots.length ? deps.settle(roots) : undefined;
}

/** Samples the process trees `roots` at 10 Hz while the load runs: what it measured (a failed load: what it measured until then) and its failure. */
async function sampled(
  load: StartedLoad,
  roots: Record<string, number | number[]>,
  kind: 'generator' | 'baseline',
): Promise<{ sampler: TreeSampler; measured?: Measured | undefined; failure?: CaseFailure | undefined }> {
  const sampler = new TreeSampler(roots, 10);
  sampler.start();
  try {
    return { sampler, measured: await load.done };
  } catch (error) {
    return { sampler, measured: error instanceof LoadFailure ? error.measured : undefined, failure: asFailure(kind, error) };
  } finally {
    sampler.stop();
  }
}

/** The repetition, marked invalid with the reasons in its notes when the data broke the API's conditions. */
async function checked<C extends PlannedCase>(deps: CaseLoopDeps<C>, c: C, rep: Repetition): Promise<Repetition> {
  const violations = (await deps.afterRepetition?.(c)) ?? [];
  if (violations.length === 0) return rep;
  console.log(`  INVALID repetition ${rep.index} of ${c.id}: ${violations.length} violated condition(s), first: ${violations[0]}`);
  return { ...rep, invalid: true, notes: [...(rep.notes ?? []), ...violations.map((v) => `invalid: ${v}`)] };
}

/** When the database no longer answers, that is the failure, whatever showed it first. */
async function blameDatabase<C extends PlannedCase>(deps: CaseLoopDeps<C>, f: CaseFailure): Promise<CaseFailure> {
  if (f.kind === 'database') return f;
  const down = await deps.databaseDown();
  return down ? { kind: 'database', reason: `${down} (${f.reason})`, ...(f.detail ? { detail: f.detail } : {}) } : f;
}

function toRepetition(
  index: number,
  startedAt: Date,
  m: Measured,
  /** A process tree's usage over the repetition's window. */
  usageOf: (tree: string) => Usage | undefined,
  order: readonly string[],
  partial: boolean,
  ceilingRate: number | undefined,
  native: boolean,
  settled: Settled | undefined,
): Repetition {
  const generator = usageOf('generator');
  const serverUsage = usageOf('server');
  const databaseUsage = usageOf('database');
  const notes = [...m.notes];
  // A native client is there to be no limit at all: past half its core it may be one.
  const bound = native ? NATIVE_CLIENT_BOUND_CPU_PERCENT : GENERATOR_BOUND_CPU_PERCENT;
  const busy = (generator?.cpuPercentMean ?? 0) > bound;
  if (busy) notes.push(`the ${native ? 'native client' : 'load generator'} used ${generator?.cpuPercentMean}% of a core on average (above ${bound}%)`);
  if (m.droppedIterations) notes.push(`${m.droppedIterations} iterations dropped`);
  if (settled && !settled.idle)
    notes.push(`started with the servers and the database still busy: ${settled.cpuPercent}% of a core after waiting ${settled.seconds} s`);
  const perRequest = cpuPerRequest({ server: serverUsage, database: databaseUsage, generator }, m.requests);
  const ceilingShare = ceilingRate ? Math.round((m.requests / m.durationSeconds / ceilingRate) * 1000) / 1000 : undefined;
  if (ceilingShare !== undefined && ceilingShare > CEILING_SHARE_WARNING)
    notes.push(`${Math.round(ceilingShare * 100)}% of the generator's ceiling on this machine`);
  return {
    index,
    startedAt: startedAt.toISOString(),
    ...(settled ? { settleSeconds: settled.seconds } : {}),
    durationSeconds: m.durationSeconds,
    requests: m.requests,
    errors: m.errors,
    throughput: m.throughput,
    latencyMs: m.latencyMs,
    ...(m.serverMs ? { serverMs: m.serverMs } : {}),
    ...(m.requestTypes ? { requestTypes: inOrder(m.requestTypes, order) } : {}),
    ...(m.timeline ? { timeline: m.timeline } : {}),
    ...(m.droppedIterations !== undefined ? { droppedIterations: m.droppedIterations } : {}),
    ...(m.apdex ? { apdex: m.apdex } : {}),
    ...(m.overTime ? { overTime: m.overTime } : {}),
    ...(m.stress ? { stress: m.stress } : {}),
    ...(m.generatorInstances ? { generatorInstances: [...m.generatorInstances] } : {}),
    ...(serverUsage ? { server: serverUsage } : {}),
    ...(databaseUsage ? { database: databaseUsage } : {}),
    ...(generator ? { generator } : {}),
    ...(perRequest ? { cpuPerRequestUs: perRequest } : {}),
    ...(ceilingShare !== undefined ? { ceilingShare } : {}),
    generatorBound: busy || (m.droppedIterations ?? 0) > 0,
    ...(partial ? { partial: true as const } : {}),
    ...(notes.length > 0 ? { notes } : {}),
  };
}

/** The request types in the case's order (k6's summary has its own), any others after them. */
export function inOrder<T>(types: Record<string, T>, order: readonly string[]): Record<string, T> {
  const names = [...order.filter((n) => n in types), ...Object.keys(types).filter((n) => !order.includes(n))];
  return Object.fromEntries(names.map((n) => [n, types[n]!]));
}
