// What the case loop starts for a run, from the run's recorded options and its parties:
// each case's time limit, its load (k6 here, or one k6 instance on each of a topology's
// generator hosts, sharing the scenario by execution segments; or one switched load for
// both implementations), the database-alone client, the reset to the seed where the load
// writes, the API's checks after a repetition, the database probe, the idle wait, the
// generator's ceiling, the wrk cross-check and the k6 floor at each case's rate.
import type { Seeded } from '@fairbench/harness/api/dataset.ts';
import type { Implementation } from '@fairbench/harness/impl/manifest.ts';
import type { RuntimeProviderName } from '@fairbench/harness/provision/index.ts';
import type { DatabaseServer } from '@fairbench/harness/provision/types.ts';
import { openWorkReader } from '@fairbench/harness/work/index.ts';
import type { PlannedCase, Prepared } from '../../plan/api-module.ts';
import type { BenchApi } from '../../plan/apis.ts';
import { loadSettings } from '../../plan/options.ts';
import { scriptEnv, startK6 } from '../../load/k6.ts';
import { startK6Instances } from '../../load/k6-instances.ts';
import type { GeneratorCeiling, RecordedOptions } from '../../record/result-document.ts';
import type { WorkModel } from '../../record/work-check.ts';
import { wrkCrossCheck } from '../cross-check.ts';
import { databaseDown } from '../db-probe.ts';
import { startServer, type Where } from '../parties.ts';
import type { ImplementationData } from '../own-databases.ts';
import { floorAtCaseRate } from '../rate-floor.ts';
import { settle } from '../settle.ts';
import type { CaseLoopDeps } from './deps.ts';

export interface LoopFacts {
  /** The run's options as its documents record them: the loop reads these, nothing repacked. */
  readonly options: RecordedOptions;
  readonly api: BenchApi;
  readonly prepared: Prepared<PlannedCase>;
  readonly seeded: Seeded<unknown>;
  readonly where: Where;
  readonly workDir: string;
  readonly poolSize: number;
  readonly ceiling: GeneratorCeiling | undefined;
  readonly databaseUrl: string;
  readonly databasePid: number | undefined;
  readonly impls: readonly Implementation[];
  /** An implementation's environment (its databases' URLs among it) on a port. */
  readonly env: (impl: string, port: number) => Record<string, string>;
  /** options.ownDatabases: each implementation's own databases, seed and bound module; absent: `seeded` and `prepared` serve all. */
  readonly own?: ReadonlyMap<string, ImplementationData>;
  readonly runtime: RuntimeProviderName;
  /** Proof of work: the API's work model (apis/<api>/bench/work.yaml) and the run's database; absent: the API has no model. */
  readonly work?: { readonly model: WorkModel; readonly database: DatabaseServer };
  /** Each implementation's runtime version as its server reports it on start. */
  readonly runtimes: Map<string, string>;
}

/** The loop's dependencies but the run's own (its events, what it records, whether it is stopping). */
export function caseLoopDeps(facts: LoopFacts): Omit<CaseLoopDeps<PlannedCase>, 'events' | 'recorded' | 'stopping'> {
  const { options, api, prepared, seeded, where, workDir, poolSize, ceiling, databaseUrl, databasePid, impls, env, runtime, runtimes, own, work } = facts;
  const { placement, topology } = where;
  const settings = loadSettings(options, false);
  const k6 = { script: api.script, cores: placement.generator, workDir };
  return {
    impls: impls.map((i) => i.manifest.name),
    options,
    startServer: async (name) => {
      const server = await startServer(
        impls.find((i) => i.manifest.name === name)!,
        (port) => env(name, port),
        runtime,
        where,
      );
      if (server.runtimeVersion) runtimes.set(name, server.runtimeVersion);
      return server;
    },
    limitSeconds: (c, first) => api.module.limitSeconds(c, loadSettings(options, first)),
    startLoad: (c, server, limitSeconds, first) => {
      const s = loadSettings(options, first);
      const env = scriptEnv(server.baseUrl, api.module.plannedSeconds(c, s), prepared.k6Env(c, s));
      // On a topology's generator hosts: one k6 instance on each, sharing the scenario by execution segments.
      return topology ? startK6Instances(c.id, env, topology.generators, { ...k6, limitSeconds }) : startK6(c.id, env, { ...k6, limitSeconds });
    },
    // Switched slices (bench/k6/measure.js target()): the warm-up, then 2 × pairs slices in one k6, no latency timeline (it would mix the two).
    ...(options.switchedSlices
      ? {
          startSwitched: (c: PlannedCase, servers: readonly { baseUrl: string }[], order: string, first: boolean) => {
            const slices = options.switchedSlices!;
            const s = { ...loadSettings(options, first), durationSeconds: order.length * slices.sliceSeconds };
            const env = {
              ...scriptEnv(servers[0]!.baseUrl, api.module.plannedSeconds(c, s), prepared.k6Env(c, s)),
              TIMELINE_SECONDS: 0,
              SLICE_BASES: servers.map((server) => server.baseUrl).join(' '),
              SLICE_ORDER: order,
              SLICE: slices.sliceSeconds,
              SLICE_GUARD: slices.guardSeconds,
            };
            return startK6(c.id, env, { ...k6, limitSeconds: api.module.limitSeconds(c, s) });
          },
        }
      : {}),
    startBaseline: (c, limitSeconds) =>
      prepared.startBaseline(c, settings, {
        cores: placement.generator,
        workDir,
        poolSize,
        limitSeconds,
        ...(topology ? { host: topology.generators[0]! } : {}),
      }),
    // Where the load writes, every repetition starts from the seed: with databases of their own, the loaded implementation's (all of them for a switched load).
    // The database first finishes the last load's commands: after an overload (users at 1,000
    // arrivals) FerretDB still ran its queue when the server was restarted, and a reset beside
    // it failed ("index … already exists"; run 2026-11-29T00-25-46Z).
    ...(api.manifest.bench.writes
      ? {
          reset: async (name?: string) => {
            if (databasePid !== undefined) await settle([databasePid]);
            return forEachData(
              own,
              name,
              (d) => d.seeded.reset(),
              () => seeded.reset(),
            );
          },
        }
      : {}),
    ...(prepared.afterRepetition
      ? {
          afterRepetition: async (c: PlannedCase, name?: string) =>
            (
              await forEachData(
                own,
                name,
                async (d, impl) => (await d.prepared.afterRepetition!(c)).map((line) => `${impl}'s database: ${line}`),
                () => prepared.afterRepetition!(c),
              )
            ).flat(),
        }
      : {}),
    ...(work
      ? {
          work: {
            model: work.model,
            shared: !own,
            // An implementation's own database of the run's kind, where it has one.
            open: (impl?: string) => openWorkReader(own?.get(impl ?? '')?.servers.find((d) => d.kind === work.database.kind) ?? work.database),
          },
        }
      : {}),
    databaseDown: () => databaseDown(databaseUrl),
    databasePid,
    settle: (roots) => settle(roots),
    ceilingRate: ceiling?.rate,
    ...(where.crossCheck ? { crossCheck: wrkCrossCheck(prepared.wrkLoad?.bind(prepared), settings, { cores: placement.generator, workDir }) } : {}),
    // The floor at each case's rate beside the run's F (not in QUICK runs, whose windows are shorter than it; not with a topology, whose k6 runs elsewhere).
    ...(ceiling?.floor && !topology && !options.quick
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

/** `each` on the loaded implementation's own data, or on every implementation's where `name` is absent; `shared` where the run has one database. */
async function forEachData<T>(
  own: ReadonlyMap<string, ImplementationData> | undefined,
  name: string | undefined,
  each: (d: ImplementationData, impl: string) => Promise<T>,
  shared: () => Promise<T>,
): Promise<T[]> {
  if (!own) return [await shared()];
  const out: T[] = [];
  for (const [impl, d] of own) if (name === undefined || name === impl) out.push(await each(d, impl));
  return out;
}
