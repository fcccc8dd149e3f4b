// What the case loop starts for a run, from the run's plan and parties: each case's time
// limit, its load (k6 here, or one k6 instance on each of a topology's generator hosts,
// sharing the scenario by execution segments), the database-alone client, the reset to the
// seed where the load writes, the API's checks after a repetition, the database probe, the
// idle wait, the generator's ceiling, the wrk cross-check and the k6 floor at each case's rate.
import type { Seeded } from '@fairbench/harness/api/dataset.ts';
import type { Implementation } from '@fairbench/harness/impl/manifest.ts';
import type { RuntimeProviderName } from '@fairbench/harness/provision/index.ts';
import type { PlannedCase, Prepared } from '../plan/api-module.ts';
import type { BenchApi } from '../plan/apis.ts';
import { firstWarmup, runSettings, type BenchOptions, type SwitchedPlan } from '../plan/options.ts';
import { wrkCrossCheck } from './cross-check.ts';
import { floorAtCaseRate } from './rate-floor.ts';
import { scriptEnv, startK6, type RunSettings } from '../load/k6.ts';
import { startK6Instances } from '../load/k6-instances.ts';
import type { BenchResult, GeneratorCeiling } from '../record/result-document.ts';
import type { CaseLoopDeps } from './case-loop.ts';
import { databaseDown } from './db-probe.ts';
import { startServer, type Where } from './parties.ts';
import { settle } from './settle.ts';

export interface LoopFacts {
  readonly opts: BenchOptions;
  readonly api: BenchApi;
  readonly prepared: Prepared<PlannedCase>;
  readonly seeded: Seeded<unknown>;
  readonly where: Where;
  readonly options: BenchResult['options'];
  readonly workDir: string;
  readonly poolSize: number;
  readonly ceiling: GeneratorCeiling | undefined;
  readonly databaseUrl: string;
  readonly databasePid: number | undefined;
  readonly impls: readonly Implementation[];
  readonly env: (port: number) => Record<string, string>;
  readonly runtime: RuntimeProviderName;
  /** Each implementation's runtime version as its server reports it on start. */
  readonly runtimes: Map<string, string>;
}

/** A case's switched load (bench/k6/measure.js target()): the warm-up, then 2 × repeat slices in one k6, no latency timeline (it would mix the two). */
function switchedLoad(facts: LoopFacts, s: SwitchedPlan): NonNullable<CaseLoopDeps<PlannedCase>['switched']>['start'] {
  const { opts, api, prepared, where, workDir } = facts;
  return (c, servers, order) => {
    const settings: RunSettings = { ...runSettings(opts), durationSeconds: order.length * s.sliceSeconds };
    const env = {
      ...scriptEnv(servers[0]!.baseUrl, api.module.plannedSeconds(c, settings), prepared.k6Env(c, settings)),
      TIMELINE_SECONDS: 0,
      SLICE_BASES: servers.map((server) => server.baseUrl).join(' '),
      SLICE_ORDER: order,
      SLICE: s.sliceSeconds,
      SLICE_GUARD: s.guardSeconds,
    };
    return startK6(c.id, env, { script: api.script, cores: where.placement.generator, workDir, limitSeconds: api.module.limitSeconds(c, settings) });
  };
}

/** The loop's dependencies but the run's own (its events, what it records, whether it is stopping). */
export function caseLoopDeps(facts: LoopFacts): Omit<CaseLoopDeps<PlannedCase>, 'events' | 'recorded' | 'stopping'> {
  const { opts, api, prepared, seeded, where, options, workDir, poolSize, ceiling, databaseUrl, databasePid, impls, env, runtime, runtimes } = facts;
  const { placement, topology } = where;
  const settings = runSettings(opts);
  // A served case's first load (its first warm-up iteration, or else its first repetition) is its implementation's first since it started.
  const settingsOf = (first: boolean): RunSettings => (first ? { ...settings, warmupSeconds: firstWarmup(opts) } : settings);
  return {
    impls: impls.map((i) => i.manifest.name),
    repeat: opts.repeat,
    startServer: async (name) => {
      const server = await startServer(
        impls.find((i) => i.manifest.name === name)!,
        env,
        runtime,
        where,
      );
      if (server.runtimeVersion) runtimes.set(name, server.runtimeVersion);
      return server;
    },
    limitSeconds: (c, first) => api.module.limitSeconds(c, settingsOf(first)),
    startLoad: (c, server, limitSeconds, first) => {
      const env = scriptEnv(server.baseUrl, api.module.plannedSeconds(c, settingsOf(first)), prepared.k6Env(c, settingsOf(first)));
      // On a topology's generator hosts: one k6 instance on each, sharing the scenario by execution segments.
      return topology
        ? startK6Instances(c.id, env, topology.generators, { script: api.script, workDir, limitSeconds })
        : startK6(c.id, env, { script: api.script, cores: placement.generator, workDir, limitSeconds });
    },
    // Switched slices (options.switchedSlices): one load per case for all its repetitions, each slice to servers[order[i]].
    ...(options.switchedSlices
      ? {
          switched: {
            pairs: options.switchedSlices.pairs,
            seconds: opts.warmupSeconds + 2 * options.switchedSlices.pairs * options.switchedSlices.sliceSeconds,
            start: switchedLoad(facts, options.switchedSlices),
          },
        }
      : {}),
    // Recorded on the first loads exactly as in the run's options.
    ...(options.firstWarmupSeconds !== undefined ? { firstWarmupSeconds: options.firstWarmupSeconds } : {}),
    ...(options.warmupIterations ? { warmupIterations: options.warmupIterations } : {}),
    startBaseline: (c, limitSeconds) =>
      prepared.startBaseline(c, settings, {
        cores: placement.generator,
        workDir,
        poolSize,
        limitSeconds,
        ...(topology ? { host: topology.generators[0]! } : {}),
      }),
    // Where the load writes, every repetition starts from the seed.
    ...(api.manifest.bench.writes ? { reset: () => seeded.reset() } : {}),
    ...(prepared.afterRepetition ? { afterRepetition: (c: PlannedCase) => prepared.afterRepetition!(c) } : {}),
    databaseDown: () => databaseDown(databaseUrl),
    databasePid,
    settle: (roots) => settle(roots),
    ceilingRate: ceiling?.rate,
    ...(where.crossCheck ? { crossCheck: wrkCrossCheck(prepared.wrkLoad?.bind(prepared), settings, { cores: placement.generator, workDir }) } : {}),
    // The floor at each case's rate beside the run's F (not in QUICK runs, whose windows are shorter than it; not with a topology, whose k6 runs elsewhere).
    ...(ceiling?.floor && !topology && !opts.quick
      ? {
          floorAtRate: floorAtCaseRate(
            (c) => {
              const vus = Number(prepared.k6Env(c, settings)['VUS']);
              return Number.isInteger(vus) && vus > 0 ? vus : undefined;
            },
            placement,
            workDir,
          ),
        }
      : {}),
  };
}
