// What k6-operator.ts needs besides the case: the script's environment, made without a
// database, and the k6 archive of the script with that environment (clusterCases()).
//
// The environment. An API module's prepare() binds its cases to the seeded data set; the
// local runner calls it after seeding. What k6Env reads of the data (forum: the id ranges,
// 1..comments and 1..users; users: the admin's login; sports: seeded accounts) comes from the
// rows the dataset module generates, deterministically, from the paper scale: the same rows
// the cluster's database must be seeded with (the fingerprint says which). So the rows are
// generated here (forum: ~1.5 s; users: ~40 s, its bcrypt hashes) and prepare() is given
// servers that were never started: only the database-alone baselines use their URLs, and none
// runs here. An environment that carried such a URL would need a real database: refused.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import { join, relative } from 'node:path';
import { datasetModule, type Databases, type Seeded } from '@fairbench/harness/api/dataset.ts';
import { repoRoot } from '@fairbench/harness/paths.ts';
import { runCommand } from '@fairbench/harness/process.ts';
import type { DatabaseKind, DatabaseServer } from '@fairbench/harness/provision/types.ts';
import type { PlannedCase, Prepared } from '../plan/api-module.ts';
import type { BenchApi } from '../plan/apis.ts';
import { envArgs, scriptEnv, type RunSettings } from '../load/k6.ts';
import type { ClusterCase } from './operator.ts';
import { k6Binary } from '../paths.ts';
import { isDatabaseAlone } from '../record/result-document.ts';

const NOT_STARTED = 'not-started.invalid';

export interface OfflinePrepared {
  readonly prepared: Prepared<PlannedCase>;
  /** The paper data set the environment assumes: the cluster's database must hold these rows. */
  readonly dataset: { readonly name: string; readonly scale: 'paper'; readonly fingerprint: string };
}

/** The API module's prepare() on the paper data set's rows, without a database. */
export async function preparedWithoutDatabase(api: BenchApi): Promise<OfflinePrepared> {
  const dataset = await datasetModule<unknown>(api);
  const scale = dataset.scales.paper;
  const data = await dataset.generate(scale);
  const fingerprint = dataset.fingerprint(data);
  const seeded: Seeded<unknown> = {
    data,
    info: { name: api.manifest.name, seed: scale.seed, scale: { ...scale } as Readonly<Record<string, number>>, fingerprint, rows: {}, loadMs: 0 },
    reset: () => Promise.reject(new Error('k6-operator: there is no database here to reset')),
  };
  const databases: Databases = new Map(api.manifest.databases.map((kind) => [kind, notStarted(kind)] as const));
  const prepared = await api.module.prepare(seeded, databases);
  return {
    prepared: {
      ...prepared,
      k6Env: (c, s) => {
        const env = prepared.k6Env(c, s);
        const needs = Object.entries(env).find(([, v]) => String(v).includes(NOT_STARTED));
        if (needs) throw new Error(`${api.name}'s k6 environment needs a running database (${needs[0]}): it cannot be made without one`);
        return env;
      },
    },
    dataset: { name: api.manifest.name, scale: 'paper', fingerprint },
  };
}

/** A database server that was never started: its URL connects nowhere (.invalid). */
function notStarted(kind: DatabaseKind): DatabaseServer {
  return {
    kind,
    url: `${kind === 'mongo' ? 'mongodb' : kind}://${NOT_STARTED}/fairbench`,
    engine: { name: 'none', version: 'none' },
    provider: 'local',
    stop: () => Promise.resolve(),
  };
}

/**
 * `k6 archive` of `script` with the environment `env` (stored in the archive's metadata.json
 * and given to the script as __ENV when it runs): the script, every module it imports
 * (bench/k6/*.js) and its options, as one tar. k6's own, like the local runner's, and no usage report.
 */
export async function k6Archive(script: string, env: Readonly<Record<string, string | number>>): Promise<Uint8Array> {
  const dir = await mkdtemp(join(os.tmpdir(), 'fairbench-k6-archive-'));
  try {
    const file = join(dir, 'archive.tar');
    const args = ['archive', '--quiet', '--no-color', '-O', file, ...envArgs(env), script];
    await runCommand(k6Binary, args, { env: { ...process.env, K6_NO_USAGE_REPORT: 'true' } });
    return new Uint8Array(await readFile(file));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** `k6 inspect` of an archive: the options it carries (its scenarios among them). */
export async function inspectArchive(archive: Uint8Array): Promise<{ scenarios?: Record<string, Record<string, unknown>> } & Record<string, unknown>> {
  const dir = await mkdtemp(join(os.tmpdir(), 'fairbench-k6-inspect-'));
  try {
    const file = join(dir, 'archive.tar');
    await writeFile(file, archive);
    const { stdout } = await runCommand(k6Binary, ['inspect', '--no-color', file], { env: { ...process.env, K6_NO_USAGE_REPORT: 'true' } });
    return JSON.parse(stdout) as { scenarios?: Record<string, Record<string, unknown>> };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export interface ClusterRun {
  readonly api: BenchApi;
  /** The cases to run, benchmarked ones only (a database-alone case is no k6 load). */
  readonly cases: readonly PlannedCase[];
  readonly settings: RunSettings;
  /** The implementation's URL as the runners reach it (a Service in the cluster). */
  readonly baseUrl: string;
  readonly runId: string;
}

/** Every case's inputs of k6-operator.ts clusterManifest(): its environment as the local runner makes it, and its archive. */
export async function clusterCases(run: ClusterRun): Promise<ClusterCase[]> {
  const { api, settings } = run;
  const { prepared, dataset } = await preparedWithoutDatabase(api);
  const cases: ClusterCase[] = [];
  for (const c of run.cases) {
    if (isDatabaseAlone(c.protocol)) throw new Error(`${c.id} is a database-alone case: no k6 load to run on k6-operator`);
    const env = scriptEnv(run.baseUrl, api.module.plannedSeconds(c, settings), prepared.k6Env(c, settings));
    cases.push({
      api: api.name,
      case: c,
      settings,
      env,
      archive: await k6Archive(api.script, env),
      limitSeconds: api.module.limitSeconds(c, settings),
      provenance: {
        'run-id': run.runId,
        scenario: relative(repoRoot, api.scenarioFile),
        script: relative(repoRoot, api.script),
        dataset: `${dataset.name} ${dataset.scale} ${dataset.fingerprint}`,
      },
    });
  }
  return cases;
}
