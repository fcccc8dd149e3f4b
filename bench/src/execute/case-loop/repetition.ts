// One load and what it measured: reset the data, wait until the case's servers and the
// database are idle, start the load, sample every process tree at 10 Hz while it runs, and
// turn k6's (or the baseline client's) figures into the recorded repetition — with its
// failure, if any, the database named where it stopped answering. Every mode of the case
// loop measures through here.
import { setTimeout as sleep } from 'node:timers/promises';
import type { PlannedCase } from '../../plan/api-module.ts';
import { cpuPerRequest } from '../../load/cpu-per-request.ts';
import { asFailure, emptyWindow, failure, LoadFailure } from '../../load/failure.ts';
import type { Measured, StartedLoad } from '../../load/k6.ts';
import { TreeSampler, type Usage } from '../../load/proc-sampler.ts';
import { CEILING_SHARE_WARNING, NATIVE_CLIENT_BOUND_CPU_PERCENT, tierOf, type CaseFailure, type Repetition } from '../../record/result-document.ts';
import type { Settled } from '../settle.ts';
import { withServerErrors, withWork } from '../../record/validity.ts';
import { checkStopping, type CaseLoopDeps, type LoopServer, type ServedCase } from './deps.ts';
import { answersOf, sayMissing, startWork, workOf } from './work.ts';

/** k6 (or the baseline client) busier than this share of its core measured itself, not the server. */
const GENERATOR_BOUND_CPU_PERCENT = 80;

/**
 * One load of a served case on one implementation (a repetition, or a warm-up iteration):
 * `begin` tells it (the mode's event), the load ends with 'load-end'. `first`: the
 * implementation's first load since it started, which records its longer warm-up.
 */
export async function loadOn<C extends PlannedCase>(
  s: ServedCase<C>,
  name: string,
  index: number,
  first: boolean,
  begin: () => void,
): Promise<{ rep?: Repetition; failure?: CaseFailure }> {
  const { c, deps } = s;
  const server = s.servers.get(name)!;
  begin();
  const result = await repetition(
    deps,
    index,
    server,
    [...s.servers.values()],
    c,
    async () => deps.startLoad(c, server, deps.limitSeconds(c, first), first),
    'generator',
    name,
  );
  deps.events?.emit('load-end');
  checkStopping(deps);
  // A freshly started implementation's first load records its longer warm-up (options.firstWarmupSeconds).
  const longer = deps.options.firstWarmupSeconds;
  return result.rep && first && longer !== undefined ? { ...result, rep: { ...result.rep, warmupSeconds: longer } } : result;
}

/**
 * One repetition: reset the data, wait until the case's servers (`running`) and the
 * database are idle, start the load, sample while it runs. A failure comes
 * back with whatever was measured (the repetition then marked partial); a database that
 * stopped answering is named as the cause whatever failed first.
 */
export async function repetition<C extends PlannedCase>(
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
    await deps.reset?.(name);
  } catch (error) {
    return { failure: await blameDatabase(deps, asFailure('database', error, 'resetting the data failed: ')) };
  }
  const settled = await settleAll(deps, running);
  if (settled && !settled.idle)
    console.log(
      `  ${c.id}${name ? ` · ${name}` : ''}: the servers and the database still used ${settled.cpuPercent}% of a core after ${settled.seconds} s; measuring anyway (noted)`,
    );
  // The database-alone client works on the run's database; an implementation on its own where it has one.
  const work = await startWork(deps, server ? name : undefined);
  const startedAt = new Date();
  let load: StartedLoad;
  try {
    load = await start();
  } catch (error) {
    await work?.stop();
    return { failure: await blameDatabase(deps, asFailure(loadKind, error)) };
  }
  const generators = (load.processes ?? [load.process]).filter((p) => !p.remote).map((p) => p.pid);
  const roots: Record<string, number | number[]> = generators.length ? { generator: generators } : {};
  if (server && !server.process.remote) roots['server'] = server.process.pid;
  if (deps.databasePid !== undefined) roots['database'] = deps.databasePid;
  const { sampler, measured, failure: loadFailed } = await sampled(load, roots, loadKind);
  await work?.stop();
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
  if (rep && server) rep = withServerErrors(rep, c.failuresMeasured === true);
  if (rep && measured && !failed) {
    const proof = workOf(deps, work, c, answersOf(c, rep), { ...measured.window, kind: 'repetition', sharedServer: false });
    sayMissing(`${c.id}${name ? ` · ${name}` : ''}`, index, proof);
    if (proof) rep = withWork({ ...rep, work: proof });
  }
  if (rep && !failed) rep = await checked(deps, c, rep, name);
  return { ...(rep ? { rep } : {}), ...(failed ? { failure: failed } : {}) };
}

/** Waits until the servers `running` and the database are idle (deps.settle); undefined when nothing waits. */
export async function settleAll<C extends PlannedCase>(deps: CaseLoopDeps<C>, running: readonly LoopServer[]): Promise<Settled | undefined> {
  // A process on another machine (over SSH) is not in this machine's /proc: neither waited for nor sampled.
  const roots = [...running.filter((s) => !s.process.remote).map((s) => s.process.pid), ...(deps.databasePid !== undefined ? [deps.databasePid] : [])];
  return deps.settle && roots.length ? deps.settle(roots) : undefined;
}

/** Samples the process trees `roots` at 10 Hz while the load runs: what it measured (a failed load: what it measured until then) and its failure. */
export async function sampled(
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
/** The API's conditions after a load of `name` (every implementation's data where absent): a repetition that broke them is marked invalid. */
export async function checked<C extends PlannedCase>(deps: CaseLoopDeps<C>, c: C, rep: Repetition, name?: string): Promise<Repetition> {
  const violations = (await deps.afterRepetition?.(c, name)) ?? [];
  if (violations.length === 0) return rep;
  console.log(`  INVALID repetition ${rep.index} of ${c.id}: ${violations.length} violated condition(s), first: ${violations[0]}`);
  return { ...rep, invalid: true, notes: [...(rep.notes ?? []), ...violations.map((v) => `invalid: ${v}`)] };
}

/** When the database no longer answers, that is the failure, whatever showed it first. */
export async function blameDatabase<C extends PlannedCase>(deps: CaseLoopDeps<C>, f: CaseFailure): Promise<CaseFailure> {
  if (f.kind === 'database') return f;
  const down = await deps.databaseDown();
  return down ? { kind: 'database', reason: `${down} (${f.reason})`, ...(f.detail ? { detail: f.detail } : {}) } : f;
}

export function toRepetition(
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
