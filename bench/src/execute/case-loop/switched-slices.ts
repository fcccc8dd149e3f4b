// A comparison's repetitions as switched slices of one load (options.switchedSlices;
// bench/k6/measure.js target()): no k6 start and no idle wait between the two slices of a
// pair, which are then adjacent, so drift between slices cancels in the pair.
import type { PlannedCase } from '../../plan/api-module.ts';
import { asFailure, failure } from '../../load/failure.ts';
import type { Measured, StartedLoad } from '../../load/k6.ts';
import { checkStopping, processField, type LoopOptions, type ProcessShare, type ServedCase } from './deps.ts';
import { orderOf } from './order.ts';
import { withServerErrors, withWork } from '../../record/validity.ts';
import { blameDatabase, sampled, settleAll, toRepetition } from './repetition.ts';
import { answersOf, sayMissing, startWork, sumAnswers, workOf } from './work.ts';
import type { WorkSampler } from '../../load/work-sampler.ts';

/** The planned seconds of a switched load of `pairs` pairs: its warm-up (a fresh start's first load's longer one) and both implementations' slices (the progress's ETA). */
export const switchedSeconds = (o: LoopOptions, pairs: number, first: boolean): number =>
  (first ? Math.max(o.firstWarmupSeconds ?? 0, o.warmupSeconds) : o.warmupSeconds) + 2 * pairs * o.switchedSlices!.sliceSeconds;

/**
 * A comparison's repetitions as switched slices of one load (bench/k6/measure.js target()): each
 * repetition r a pair of adjacent slices, one per implementation in the round's random order
 * (interleave.ts), so that no slice pays a k6 start and a pair's two slices are seconds
 * closer than separate loads could be. Each slice is recorded as its implementation's
 * repetition r: k6's figures of the slice, and every process tree's CPU over exactly the
 * slice's window (the sampler interpolated at its ends). A load that fails fails the case
 * for both implementations, with the slices it measured. With process pairs, the load holds
 * this start's share of the case's pairs (share.first to share.last).
 */
export async function switchedRepetitions<C extends PlannedCase>(s: ServedCase<C>, share: ProcessShare, warmed: boolean): Promise<void> {
  const { c, firstStep, deps, servers, outcomes } = s;
  const { impls } = deps;
  const pairs = share.last - share.first + 1;
  const running = impls.map((name) => servers.get(name)!);
  const order = Array.from({ length: pairs }, (_, k) =>
    orderOf(deps, c, share.first + k)
      .map((name) => impls.indexOf(name))
      .join(''),
  ).join('');
  // A load that writes starts from the seed: each implementation's own database (options.ownDatabases), none reset between slices.
  try {
    await deps.reset?.();
  } catch (error) {
    const f = await blameDatabase(deps, asFailure('database', error, 'resetting the data failed: '));
    for (const name of impls) outcomes.get(name)!.failure = { ...f, repetition: share.first };
    return;
  }
  const settled = await settleAll(deps, running);
  deps.events?.emit('load-begin', {
    step: firstStep,
    repetition: 1,
    label: `${c.id} · ${impls.join(' ⇄ ')}: ${pairs} pairs of switched slices${share.of > 1 ? ` (process pair ${share.k}/${share.of})` : ''}`,
    switched: {
      steps: impls.map((_, k) => firstStep + k),
      seconds: switchedSeconds(deps.options, pairs, !warmed),
      share: pairs / deps.options.switchedSlices!.pairs,
    },
  });
  // Each implementation's database read through the load (one reader where they share it).
  const work = new Map<string, WorkSampler | undefined>();
  if (deps.work) for (const name of deps.work.shared ? [impls[0]!] : impls) work.set(name, await startWork(deps, deps.work.shared ? undefined : name));
  const stopWork = () => Promise.all([...work.values()].map((w) => w?.stop()));
  let load: StartedLoad;
  try {
    load = await deps.startSwitched!(c, running, order, !warmed);
  } catch (error) {
    await stopWork();
    const f = await blameDatabase(deps, asFailure('generator', error));
    for (const name of impls) outcomes.get(name)!.failure = { ...f, repetition: share.first };
    deps.events?.emit('load-end');
    return;
  }
  const roots: Record<string, number | number[]> = { generator: (load.processes ?? [load.process]).map((p) => p.pid) };
  running.forEach((server, side) => (roots[`server${side}`] = server.process.pid));
  if (deps.databasePid !== undefined) roots['database'] = deps.databasePid;
  const { sampler, measured, failure: loadFailed } = await sampled(load, roots, 'generator');
  await stopWork();
  let failed = loadFailed;
  deps.events?.emit('load-end');
  checkStopping(deps);
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
      share.first + Math.floor(i / 2),
      new Date(m.window.from),
      typed,
      usage,
      c.requestTypes ?? [],
      failed !== undefined,
      deps.ceilingRate,
      false,
      settled,
    );
    outcomes.get(name)!.repetitions.push({ ...withServerErrors(rep, c.failuresMeasured === true), order: (i % 2) + 1, slice: i + 1, ...processField(share) });
  }
  if (!failed) switchedWork(s, share, work, measured?.slices ?? []);
  // The API's conditions on each implementation's data after the load: a broken one marks that implementation's slices of it invalid.
  if (!failed && deps.afterRepetition)
    for (const name of impls) {
      const reps = outcomes.get(name)!.repetitions;
      const these = reps.flatMap((r, k) => (r.index >= share.first && r.index <= share.last ? [k] : []));
      if (these.length === 0) continue;
      const violations = await deps.afterRepetition(c, name);
      if (violations.length === 0) continue;
      console.log(`  INVALID switched slices of ${name} in ${c.id}: ${violations.length} violated condition(s), first: ${violations[0]}`);
      for (const k of these) reps[k] = { ...reps[k]!, invalid: true, notes: [...(reps[k]!.notes ?? []), ...violations.map((v) => `invalid: ${v}`)] };
    }
  if (failed) for (const name of impls) outcomes.get(name)!.failure = { ...failed, repetition: share.first };
}

/**
 * A switched load's proof of work: the window is the load, from an implementation's first
 * slice to its last, against its slices' answers together (both implementations' where they
 * share one database); each of its slices records it. The guards between slices do uncounted
 * work in it: a cheat must outweigh them to show. Server-wide counters prove something only
 * where both share one database (the group is then both, and nothing else runs on the server).
 */
function switchedWork<C extends PlannedCase>(
  s: ServedCase<C>,
  share: ProcessShare,
  work: ReadonlyMap<string, WorkSampler | undefined>,
  slices: readonly { side: number; measured: Measured }[],
): void {
  const { c, deps, outcomes } = s;
  if (!deps.work || slices.length === 0) return;
  const ofLoad = (name: string) => outcomes.get(name)!.repetitions.filter((r) => r.index >= share.first && r.index <= share.last);
  const groups = deps.work.shared ? [deps.impls] : deps.impls.map((name) => [name]);
  for (const group of groups) {
    const sides = new Set(group.map((name) => deps.impls.indexOf(name)));
    const windows = slices.filter((slice) => sides.has(slice.side)).map((slice) => slice.measured.window);
    if (windows.length === 0) continue;
    const from = Math.min(...windows.map((w) => w.from));
    const to = Math.max(...windows.map((w) => w.to));
    const answers = sumAnswers(group.flatMap((name) => ofLoad(name).map((rep) => answersOf(c, rep))));
    // Own databases on one server: its server-wide counters hold the other's work too. One shared database: the group is both, and they are theirs.
    const proof = workOf(deps, work.get(group[0]!), c, answers, { from, to, kind: 'load', sharedServer: !deps.work.shared });
    if (!proof) continue;
    sayMissing(`${c.id} · ${group.join(' ⇄ ')} (switched load)`, share.first, proof);
    for (const name of group) {
      const reps = outcomes.get(name)!.repetitions;
      for (const [k, rep] of reps.entries()) if (rep.index >= share.first && rep.index <= share.last) reps[k] = withWork({ ...rep, work: proof });
    }
  }
}

const sum = (xs: Record<string, number>) => Object.values(xs).reduce((a, b) => a + b, 0);
