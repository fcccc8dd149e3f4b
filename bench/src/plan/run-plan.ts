// The run planned from its options, before anything starts: the API, the implementations
// (each must serve it; one name given twice is an A/A calibration run), the cases the
// filters keep and the options recorded in every result, and each step's planned load for
// the ETA. Every usage error comes from here or from the options themselves.
import { createHash } from 'node:crypto';
import { relative } from 'node:path';
import { UnknownApiError } from '@fairbench/harness/api/manifest.ts';
import { checkServes, implementation } from '@fairbench/harness/cli/usage.ts';
import type { Implementation } from '@fairbench/harness/impl/manifest.ts';
import { repoRoot } from '@fairbench/harness/paths.ts';
import { UsageError } from '../load/failure.ts';
import { isDatabaseAlone, type RecordedOptions } from '../record/result-document.ts';
import { NO_WARMUP_ITERATIONS, plannedWarmups } from './warm-up.ts';
import { apiEta, NO_OVERHEAD, type StepLoad } from './eta.ts';
import type { EtaOverheads } from './profiles.ts';
import type { PlannedCase } from './api-module.ts';
import { benchApi, type BenchApi } from './apis.ts';
import { asCopy, implCopies } from '../record/copies.ts';
import { loadSettings, type ResolvedOptions, type SwitchedPlan } from './options.ts';
import { FilteredOut } from './select.ts';

/** The API's benchmark plug-in; an unknown name is a usage error. */
export async function resolveApi(name: string): Promise<BenchApi> {
  return benchApi(name).catch((error: unknown) => {
    throw error instanceof UnknownApiError ? new UsageError(error.message) : error;
  });
}

/** The implementations, each serving the API; one name given twice is an A/A calibration run (copies.ts): each copy gets its own label. */
export async function implementationsOf(opts: Pick<ResolvedOptions, 'impls' | 'api'>): Promise<Implementation[]> {
  if (opts.impls.length === 0) throw new UsageError('give at least one implementation');
  const copies = (() => {
    try {
      return implCopies(opts.impls);
    } catch (error) {
      throw new UsageError(error instanceof Error ? error.message : String(error));
    }
  })();
  const impls: Implementation[] = [];
  for (const name of opts.impls) {
    const impl = await implementation(name);
    checkServes(impl, opts.api);
    impls.push(asCopy(impl, copies[impls.length]!));
  }
  return impls;
}

/** The cases the filters keep (none: FilteredOut), and the options every result document records. */
export async function planRun(
  api: BenchApi,
  impls: readonly Implementation[],
  opts: ResolvedOptions,
): Promise<{ cases: readonly PlannedCase[]; options: RecordedOptions }> {
  const plan = await api.module.plan(
    {
      quick: opts.quick,
      ...(opts.protocols ? { protocols: opts.protocols } : {}),
      ...(opts.cases ? { cases: opts.cases } : {}),
      ...(opts.native !== undefined ? { native: opts.native } : {}),
      limits: opts.limits,
      ...(opts.models ? { models: opts.models } : {}),
    },
    api.scenarioFile,
  );
  const cases = plan.cases;
  if (cases.length === 0) throw new FilteredOut(`no case of ${relative(repoRoot, api.scenarioFile)} matches the filters (PROTOCOL, CASES, MODEL)`);
  const switched = switchedSlices(opts, api.manifest.bench.switching === true, impls.length);
  const starts = Math.min(opts.processPairs, switched ? switched.pairs : opts.repeat);
  const options: RecordedOptions = {
    repeat: opts.repeat,
    durationSeconds: opts.durationSeconds,
    warmupSeconds: opts.warmupSeconds,
    // A served case's first load never warms up shorter than the others.
    ...(opts.firstWarmupSeconds > opts.warmupSeconds ? { firstWarmupSeconds: opts.firstWarmupSeconds } : {}),
    ...(opts.warmupIterations && opts.warmupIterations.max > 0 ? { warmupIterations: { ...opts.warmupIterations } } : {}),
    ...(switched ? { switchedSlices: switched } : {}),
    // A switched load that writes: each implementation its own database (execute/own-databases.ts).
    ...(switched && api.manifest.bench.writes ? { ownDatabases: true as const } : {}),
    // Process pairs are a comparison's unit: a run of one implementation starts it once per case.
    // Each start needs a share of the repetitions (or switched pairs) to measure.
    ...(impls.length > 1 && starts > 1 ? { processPairs: starts } : {}),
    ...(opts.limits === false ? { limits: false as const } : {}),
    quick: opts.quick,
    ...(opts.profile ? { profile: opts.profile } : {}),
    protocols: [...new Set(cases.map((c) => c.protocol))],
    cases: opts.cases ?? null,
    models: [...plan.models],
    ...(impls.length > 1 ? { implementations: impls.map((i) => i.manifest.name) } : {}),
    restartBetweenCases: true,
    scenarioFile: relative(repoRoot, api.scenarioFile),
    scenarioHash: `sha256:${createHash('sha256').update(plan.text).digest('hex')}`,
    seed: opts.seed,
  };
  return { cases, options };
}

/**
 * Switched slices where they apply: the profile asks for them, the API's script can send them
 * (api.yaml bench.switching), two implementations are compared, all on this machine (a
 * topology's k6 instances share a scenario by segments, not slices).
 */
function switchedSlices(opts: ResolvedOptions, scriptSwitches: boolean, impls: number): SwitchedPlan | undefined {
  return opts.switchedSlices && scriptSwitches && impls === 2 && opts.topology === undefined ? opts.switchedSlices : undefined;
}

/**
 * Per step of the case loop (a database-alone case once, a served case per implementation),
 * its planned loads: with process pairs, every start's (each start restarts the
 * implementation, its first load warms up longer, and it warms again, each warm-up iteration a
 * whole load of the case). A switched load per start carries both implementations' slices:
 * each step's half of them, spread over the `repeat` repetitions the progress counts.
 */
export function stepLoads(
  cases: readonly PlannedCase[],
  impls: number,
  api: BenchApi,
  options: Pick<
    RecordedOptions,
    'repeat' | 'warmupSeconds' | 'firstWarmupSeconds' | 'durationSeconds' | 'seed' | 'warmupIterations' | 'processPairs' | 'switchedSlices'
  >,
  restartSeconds = 0,
): StepLoad[] {
  const settings = loadSettings(options, false);
  const longer = loadSettings(options, true).warmupSeconds - settings.warmupSeconds;
  const s = options.switchedSlices;
  return cases.flatMap((c) => {
    const served = !isDatabaseAlone(c.protocol);
    // A case on a fresh server each repetition warms none and has every repetition's first warm-up.
    const fresh = c.freshServerEachRepetition === true;
    const switched = served && s !== undefined && impls === 2 && !fresh && c.separateLoads !== true;
    const starts = served && !fresh ? Math.min(options.processPairs ?? 1, switched ? s.pairs : options.repeat) : 1;
    const separate = api.module.plannedSeconds(c, settings);
    return Array<StepLoad>(served ? impls : 1).fill({
      seconds: switched ? (starts * settings.warmupSeconds + 2 * s.pairs * s.sliceSeconds) / (2 * options.repeat) : separate + (served && fresh ? longer : 0),
      ...(switched ? { loads: starts / 2, warmupSeconds: separate } : {}),
      firstExtra: served && !fresh ? starts * longer + (starts - 1) * restartSeconds : 0,
      ...(starts > 1 ? { starts } : {}),
      warmups: served && !fresh ? starts * plannedWarmups(options.warmupIterations ?? NO_WARMUP_ITERATIONS) : 0,
    });
  });
}

/** The steps' planned loads with the overheads the API's run pays (its own measured ones where api.yaml has them). */
export function timedSteps(
  cases: readonly PlannedCase[],
  impls: number,
  api: BenchApi,
  options: Parameters<typeof stepLoads>[3],
  profileEta: EtaOverheads = NO_OVERHEAD,
): { steps: StepLoad[]; eta: EtaOverheads } {
  const eta = apiEta(profileEta, api.manifest.bench.eta);
  return { steps: stepLoads(cases, impls, api, options, eta.caseOverheadSeconds), eta };
}
