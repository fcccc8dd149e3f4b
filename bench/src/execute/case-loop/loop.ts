// The cases of a run, one after another. A database-alone case is measured once through its
// client. A served case restarts every implementation (as the papers did: no case inherits
// another's heap or JIT state), warms them by unrecorded iterations until their rates are
// steady (warm-up-iterations.ts), then measures its repetitions in one of two modes: as
// pairs of switched slices of one load, where the options switch and two implementations
// are compared (switched-slices.ts), or as separate loads (separate-loads.ts). With process
// pairs (options.processPairs) it does so several times, each time with every implementation
// started afresh and warmed again, the repetitions spread over the starts. Every load
// resets the data and waits for idle first, and is sampled with the process trees at 10 Hz
// (repetition.ts). A case that fails — its load outran the limit, k6 or the baseline client
// exited with an error, the implementation did not start or exited, the database stopped
// answering — is recorded with its failure and what it measured, and the loop goes on.
import type { PlannedCase } from '../../plan/api-module.ts';
import { failure } from '../../load/failure.ts';
import { isDatabaseAlone, tierOf, type BenchCase } from '../../record/result-document.ts';
import { invalidReasons, missingWork, validRepetitions } from '../../record/validity.ts';
import { crossCheck, floorAtRate } from './after-case.ts';
import { checkStopping, shareOf, type CaseLoopDeps, type LoopServer, type Outcome, type ServedCase } from './deps.ts';
import { repetition } from './repetition.ts';
import { separateRepetitions } from './separate-loads.ts';
import { restartAll, start } from './servers.ts';
import { switchedRepetitions } from './switched-slices.ts';
import { warmUp } from './warm-up-iterations.ts';

/** Runs `cases`; every case is handed to deps.recorded (measured or failed) before the next begins. */
export async function runCases<C extends PlannedCase>(cases: readonly C[], deps: CaseLoopDeps<C>): Promise<void> {
  let step = (deps.firstStep ?? 1) - 1;
  for (const c of cases) {
    if (isDatabaseAlone(c.protocol)) {
      step++;
      const outcome = await runBaselineCase(c, step, deps);
      await deps.recorded(c, new Map(deps.impls.map((name) => [name, record(c, outcome, c.id)])));
    } else {
      const outcomes = await runServedCase(c, step + 1, deps);
      step += deps.impls.length;
      await deps.recorded(c, new Map(deps.impls.map((name) => [name, record(c, outcomes.get(name)!, deps.impls.length > 1 ? `${c.id} · ${name}` : c.id)])));
    }
  }
}

/**
 * The case as the result records it: invalid repetitions set aside (record/validity.ts); a
 * case with none valid failed, and one whose work was missing in any repetition (its
 * implementation did not do what its answers claim: none of its figures is one of the contract's work).
 */
function record(c: PlannedCase, o: Outcome, label: string): BenchCase {
  const valid = validRepetitions(o.repetitions);
  const invalid = o.repetitions.filter((r) => r.invalid);
  if (invalid.length)
    console.log(`  INVALID: ${invalid.length} of ${o.repetitions.length} repetitions of ${label} set aside: ${invalidReasons(invalid).join('; ')}`);
  const missing = missingWork(o.repetitions);
  const noneValid = valid.length === 0 && invalid.length > 0 && !o.failure;
  const caseFailure =
    o.failure ??
    (missing.length
      ? failure(
          'missing-work',
          `missing work in ${missing.length} of ${o.repetitions.length} repetitions: the database counted less than the answers need (${[...new Set(missing.flatMap((r) => r.work!.counters.filter((k) => k.status === 'missing').map((k) => k.counter)))].join(', ')})`,
          missing.map((r) => `repetition ${r.index}: ${r.work!.reasons.join('; ')}`).join('\n'),
        )
      : noneValid
        ? failure('invalid', `every repetition invalid: ${invalidReasons(invalid).join('; ')}`)
        : undefined);
  return {
    id: c.id,
    protocol: c.protocol,
    tier: tierOf(c),
    model: c.model,
    parameters: c.parameters,
    repetitions: valid,
    ...(invalid.length ? { invalidRepetitions: invalid } : {}),
    ...(caseFailure ? { failure: caseFailure } : {}),
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
  for (let r = 1; r <= deps.options.repeat && !outcome.failure; r++) {
    deps.events?.emit('load-begin', { step, repetition: r, label: c.id });
    const result = await repetition(deps, r, undefined, [], c, async () => deps.startBaseline(c, limitSeconds), 'baseline');
    deps.events?.emit('load-end');
    checkStopping(deps);
    if (result.rep) outcome.repetitions.push(result.rep);
    if (result.failure) outcome.failure = { ...result.failure, repetition: r };
  }
  deps.events?.emit('case-end', { label: c.id, repetitions: outcome.repetitions, failure: outcome.failure });
  return outcome;
}

/** A benchmarked case: every implementation restarted, warmed, then measured by the case's mode; one failing implementation does not stop the others. */
async function runServedCase<C extends PlannedCase>(c: C, firstStep: number, deps: CaseLoopDeps<C>): Promise<Map<string, Outcome>> {
  const { impls, options } = deps;
  const s: ServedCase<C> = {
    c,
    firstStep,
    deps,
    servers: new Map<string, LoopServer>(),
    outcomes: new Map<string, Outcome>(impls.map((name) => [name, { repetitions: [] }])),
    label: (name) => (impls.length > 1 ? `${c.id} · ${name}` : c.id),
  };
  try {
    const down = await deps.databaseDown();
    for (const name of impls) {
      if (down) s.outcomes.get(name)!.failure = failure('database', down);
      else await start(s.servers, name, s.outcomes.get(name)!, deps);
    }
    // A case that ends in overload restarts its implementations before each repetition: nothing to warm, nothing to switch.
    const fresh = c.freshServerEachRepetition === true;
    const warming = (options.warmupIterations?.max ?? 0) > 0 && !fresh;
    const switched = options.switchedSlices !== undefined && deps.startSwitched !== undefined && impls.length === 2 && !fresh && c.separateLoads !== true;
    const rounds = switched ? options.switchedSlices!.pairs : options.repeat;
    // Each start measures at least one round.
    const starts = fresh ? 1 : Math.min(options.processPairs ?? 1, rounds);
    for (let k = 1; k <= starts; k++) {
      deps.events?.emit('start-begin', { steps: impls.map((_, i) => s.firstStep + i), start: k, of: starts });
      // Process pairs: each start after the first begins with fresh processes of every implementation still in the case.
      if (k > 1) await restartAll(s, k);
      const share = shareOf(rounds, starts, k);
      if (warming) await warmUp(s, share);
      const running = impls.every((n) => s.servers.has(n) && !s.outcomes.get(n)!.failure);
      if (switched && running) await switchedRepetitions(s, share, warming);
      else await separateRepetitions(s, warming, share);
      if (impls.every((n) => s.outcomes.get(n)!.failure)) break;
    }
    await crossCheck(s);
  } finally {
    for (const server of s.servers.values()) await server.stop();
  }
  await floorAtRate(s);
  for (const name of impls) {
    const { repetitions, failure, warmup } = s.outcomes.get(name)!;
    deps.events?.emit('case-end', { label: s.label(name), repetitions, failure, warmup });
  }
  return s.outcomes;
}
