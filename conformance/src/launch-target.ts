// Seeds an API's databases and starts an implementation on them: what the suite,
// the fuzzer and `make serve` all begin with.
import { randomBytes } from 'node:crypto';
import { contractEnv } from '@fairbench/harness/impl/contract-env.ts';
import { buildImplementation, startImplementation, type RunningImplementation } from '@fairbench/harness/impl/launch.ts';
import type { Implementation } from '@fairbench/harness/impl/manifest.ts';
import { seed, type DatasetInfo, type Seeded } from '@fairbench/harness/api/dataset.ts';
import type { DatabaseKind, DatabaseServer, RuntimeProviderName } from '@fairbench/harness/provision/types.ts';
import type { AnyPreparedApi } from './api-module.ts';
import type { ConformanceApi } from './apis.ts';

export interface Target {
  readonly impl: Implementation;
  readonly api: ConformanceApi;
  /**
   * Where the implementation runs when not where its databases do: a runtime variant the
   * containers runtime cannot run, when the command chose containers itself (selectTargets says so loudly).
   */
  readonly runtime?: RuntimeProviderName;
}

export interface LaunchedTarget {
  readonly dataset: DatasetInfo;
  readonly seeded: Seeded<unknown>;
  readonly prepared: AnyPreparedApi;
  readonly running: RunningImplementation;
  /** The JWT_SECRET it was started with (fresh per launch): the suite forges tokens with it. */
  readonly jwtSecret: string;
  stop(): Promise<void>;
}

/** The implementation is built once per process (buildImplementation), however many APIs it is launched for. */
export async function launchTarget(target: Target, databases: ReadonlyMap<DatabaseKind, DatabaseServer>): Promise<LaunchedTarget> {
  return (await launchTargets([target], databases))[0]!;
}

/**
 * Targets of one implementation on one process: each API's databases seeded, then the
 * implementation started once on all the databases (it serves every API it is given the database
 * of), one LaunchedTarget per API sharing it; stopping the first stops the process, each closes
 * its own API. For the checks that read answers on several APIs in turn (the suite, fuzzing, the
 * pacts' verification): a JVM's start paid once, not once per API.
 */
export async function launchTargets(targets: readonly Target[], databases: ReadonlyMap<DatabaseKind, DatabaseServer>): Promise<LaunchedTarget[]> {
  const impl = targets[0]!.impl;
  if (targets.some((t) => t.impl !== impl || t.runtime !== targets[0]!.runtime))
    throw new Error('launchTargets: targets of one implementation and runtime only');
  const apis: { seeded: Seeded<unknown>; prepared: AnyPreparedApi }[] = [];
  const closeAll = () => Promise.all(apis.map((a) => a.prepared.close()));
  try {
    for (const { api } of targets) {
      const used = new Map(api.manifest.databases.map((k) => [k, databases.get(k)!]));
      const seeded = await seed<unknown>(api, 'conformance', used);
      apis.push({ seeded, prepared: await api.module.prepare(seeded, used) });
      const { rows, loadMs } = seeded.info;
      console.log(
        `  seeded ${api.name} (${Object.entries(rows)
          .map(([t, n]) => `${n} ${t}`)
          .join(', ')}) in ${loadMs} ms`,
      );
    }
    // The implementation runs where its databases do: both local processes, or both containers.
    const runtime = targets[0]!.runtime ?? [...databases.values()][0]?.provider ?? 'local';
    await buildImplementation(impl, { runtime });
    const jwtSecret = randomBytes(32).toString('base64url');
    const running = await startImplementation(impl, (port) => contractEnv({ port, databases: [...databases.values()], jwtSecret }), { runtime });
    console.log(`  ${impl.manifest.name} answered /health ${Math.round(running.startupMs)} ms after start (${running.runtime})`);
    return apis.map(({ seeded, prepared }) => ({
      dataset: seeded.info,
      seeded,
      prepared,
      running,
      jwtSecret,
      stop: async () => {
        if (running.process.alive()) await running.stop();
        await prepared.close();
      },
    }));
  } catch (error) {
    await closeAll();
    throw error;
  }
}

/** The targets grouped by implementation, in their order: each group one launchTargets call. */
export function byImplementation(targets: readonly Target[]): Target[][] {
  return [...new Set(targets.map((t) => t.impl))].map((impl) => targets.filter((t) => t.impl === impl));
}
