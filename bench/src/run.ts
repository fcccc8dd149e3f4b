// A benchmark run of one implementation on one API: the conformance gate, a database
// seeded with the paper's data, then every selected case — the implementation restarted
// before each, k6 (or the baseline client) pinned to the generator's core, the process
// trees sampled at 10 Hz — and one result document, checked against its schema.
import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import { join, relative } from 'node:path';
import { generateForum } from '@fairbench/db/forum/generate.ts';
import { fingerprintForum } from '@fairbench/db/forum/fingerprint.ts';
import { loadForum } from '@fairbench/db/forum/load-mysql.ts';
import { PAPER_SCALE } from '@fairbench/db/forum/model.ts';
import { onCleanup, shuttingDown } from '@fairbench/harness/cleanup.ts';
import { sourceRevision, specHash } from '@fairbench/harness/fingerprint.ts';
import { contractEnv } from '@fairbench/harness/impl/contract-env.ts';
import { buildImplementation, startImplementation, type RunningImplementation } from '@fairbench/harness/impl/launch.ts';
import { loadImplementation, type ApiName, type Implementation } from '@fairbench/harness/impl/manifest.ts';
import { missingToolchain } from '@fairbench/harness/impl/toolchain.ts';
import { repoRoot } from '@fairbench/harness/paths.ts';
import { chooseProvider, type DatabaseServer, type RuntimeProviderName } from '@fairbench/harness/provision/index.ts';
import { runtimeVersion } from '@fairbench/harness/runtime-version.ts';
import { startBaseline } from './baseline/run.ts';
import { passGate } from './gate.ts';
import { k6Version, startK6, type LoadSettings, type StartedLoad } from './k6.ts';
import { benchDir } from './paths.ts';
import { choosePlacement, listenerPid, pinProcess, type Placement } from './placement.ts';
import { TreeSampler } from './proc-sampler.ts';
import { Progress } from './progress.ts';
import { machineFacts, newRunId, writeResult } from './result.ts';
import type { BenchCase, BenchResult, Repetition } from './result-document.ts';
import { caseParameters, defaultModels, expandCases, filterCases, loadScenario, scenarioPath, type Model } from './scenario.ts';

export interface BenchOptions {
  readonly impl: string;
  readonly api: string;
  readonly repeat: number;
  readonly durationSeconds: number;
  readonly warmupSeconds: number;
  readonly quick: boolean;
  readonly protocols?: readonly string[];
  readonly cases?: string;
  readonly models?: readonly Model[];
  readonly pin: boolean;
  readonly seed: number;
}

/** k6 (or the baseline client) busier than this share of its core measured itself, not the server. */
const GENERATOR_BOUND_CPU_PERCENT = 80;

export async function runBench(opts: BenchOptions): Promise<string> {
  const started = new Date();
  const impl = await loadImplementation(opts.impl);
  if (!impl.manifest.apis.includes(opts.api as ApiName)) throw new Error(`${opts.impl} does not implement the ${opts.api} API (impl.yaml apis: ${impl.manifest.apis.join(', ')})`);
  const missing = await missingToolchain(impl.manifest);
  if (missing) throw new Error(`${opts.impl} cannot run here: ${missing}`);

  const file = scenarioPath(opts.api);
  const { scenario, text } = await loadScenario(file);
  const models = opts.models ?? defaultModels(scenario);
  const cases = filterCases(expandCases(scenario, models), {
    ...(opts.protocols ? { protocols: opts.protocols } : {}),
    ...(opts.cases ? { cases: opts.cases } : {}),
  });
  if (cases.length === 0) throw new Error(`no case of ${relative(repoRoot, file)} matches the filters (PROTOCOL, CASES, MODEL)`);

  const gate = await passGate(impl, opts.api);
  const generatorVersion = await k6Version().catch(() => {
    throw new Error('k6 is not installed: run make setup');
  });

  const placement = choosePlacement(opts.pin);
  // Local processes unless FAIRBENCH_RUNTIME=containers: on one small machine the runtime adds no noise of its own.
  const db = await chooseProvider({ default: 'local' }).start('mysql');
  const runtime = db.provider;
  const database = await placeDatabase(db, placement);
  const recordedPlacement: Placement = { ...placement, database: database.pinned ? placement.database : null };
  console.log(`database: ${db.engine.name} ${db.engine.version} (${db.provider})${database.pinned ? ` pinned to core ${placement.database?.join(',')}` : ''}`);

  const data = generateForum(PAPER_SCALE);
  const load = await loadForum(db.url, data);
  console.log(`seeded forum: ${Object.entries(load.rows).map(([t, n]) => `${n} ${t}`).join(', ')} in ${Math.round(load.milliseconds)} ms`);
  const settings: LoadSettings = {
    warmupSeconds: opts.warmupSeconds,
    durationSeconds: opts.durationSeconds,
    seed: opts.seed,
    ids: { comment: data.comments.length, user: data.users.length },
  };

  await buildImplementation(impl, { runtime });
  const env = (port: number) => contractEnv({ port, databases: [db] });
  const poolSize = Number(env(0)['DB_POOL_SIZE']);
  const workDir = await mkdtemp(join(os.tmpdir(), 'fairbench-bench-'));
  onCleanup(`bench work dir ${workDir}`, () => rm(workDir, { recursive: true, force: true }));
  const script = join(benchDir, scenario.script);

  const progress = new Progress(cases.length, opts.repeat, opts.warmupSeconds + opts.durationSeconds);
  const results: BenchCase[] = [];
  let runtimeInImage: string | undefined;
  for (const [i, c] of cases.entries()) {
    const repetitions: Repetition[] = [];
    let server: RunningImplementation | undefined;
    try {
      // Restarted before every case, as the paper did: no case inherits another's heap or JIT state.
      if (c.protocol !== 'database') server = await startServer(impl, env, runtime, placement.implementation);
      runtimeInImage ??= server?.runtimeVersion;
      for (let r = 1; r <= opts.repeat; r++) {
        progress.begin(i + 1, r, c.id);
        const repStarted = new Date();
        const started =
          server !== undefined
            ? startK6(c, server.baseUrl, settings, { script, cores: placement.generator, workDir })
            : await startBaseline(c, db.url, poolSize, settings, { cores: placement.generator, workDir });
        repetitions.push(await measure(r, repStarted, started, server, database.pid));
        progress.end();
        if (shuttingDown()) throw new Error('interrupted');
      }
    } finally {
      await server?.stop();
    }
    results.push({ id: c.id, protocol: c.protocol, model: c.model, parameters: caseParameters(c), repetitions });
    progress.caseLine(c.id, repetitions);
  }

  const finished = new Date();
  const revision = await sourceRevision();
  const doc: BenchResult = {
    schemaVersion: 1,
    runId: newRunId(started),
    api: opts.api,
    startedAt: started.toISOString(),
    finishedAt: finished.toISOString(),
    wallSeconds: Math.round((finished.getTime() - started.getTime()) / 100) / 10,
    options: {
      repeat: opts.repeat,
      durationSeconds: opts.durationSeconds,
      warmupSeconds: opts.warmupSeconds,
      quick: opts.quick,
      protocols: [...new Set(cases.map((c) => c.protocol))],
      cases: opts.cases ?? null,
      models: [...models],
      restartBetweenCases: true,
      scenarioFile: relative(repoRoot, file),
      scenarioHash: `sha256:${createHash('sha256').update(text).digest('hex')}`,
    },
    implementation: {
      name: impl.manifest.name,
      language: impl.manifest.language,
      framework: { ...impl.manifest.framework },
      runtime: { name: impl.manifest.runtime.name, version: runtimeInImage ?? (await runtimeVersion(impl.manifest.runtime.name)) },
      implTreeHash: gate.implTreeHash,
      poolSize,
      tuning: [impl.manifest.tuning],
    },
    gate,
    source: { commit: revision.commit, dirty: revision.dirty, specHash: await specHash() },
    dataset: {
      name: 'forum',
      seed: PAPER_SCALE.seed,
      scale: { ...PAPER_SCALE },
      fingerprint: fingerprintForum(data),
      rows: load.rows,
      loadMs: Math.round(load.milliseconds),
    },
    database: { kind: db.kind, engine: db.engine.name, version: db.engine.version },
    provider: db.provider,
    machine: machineFacts(recordedPlacement),
    generator: { name: 'k6', version: generatorVersion },
    cases: results,
  };
  await db.stop();
  return writeResult(doc, impl.manifest.name);
}

/**
 * Starts the implementation on its cores: a local process under taskset; a container (host
 * network, its processes visible in the host's /proc) is pinned once it runs.
 */
async function startServer(
  impl: Implementation,
  env: (port: number) => Record<string, string>,
  runtime: RuntimeProviderName,
  cpus: readonly number[] | null,
): Promise<RunningImplementation> {
  if (runtime === 'local') return startImplementation(impl, env, { runtime, ...(cpus ? { cpus } : {}) });
  const server = await startImplementation(impl, env, { runtime });
  if (cpus) await pinProcess(server.process.pid, cpus);
  return server;
}

/** Waits for one repetition's load to finish while sampling the trees involved; the repetition's record. */
async function measure(index: number, startedAt: Date, load: StartedLoad, server: RunningImplementation | undefined, databasePid: number | undefined): Promise<Repetition> {
  const roots: Record<string, number> = { generator: load.process.pid };
  if (server) roots['server'] = server.process.pid;
  if (databasePid !== undefined) roots['database'] = databasePid;
  const sampler = new TreeSampler(roots, 10);
  sampler.start();
  let m;
  try {
    m = await load.done;
  } finally {
    sampler.stop();
  }
  const usage = (name: string) => sampler.usage(name, m.window.from, m.window.to);
  const generator = usage('generator');
  const serverUsage = usage('server');
  const databaseUsage = usage('database');
  const notes = [...m.notes];
  const busy = (generator?.cpuPercentMean ?? 0) > GENERATOR_BOUND_CPU_PERCENT;
  if (busy) notes.push(`the load generator used ${generator?.cpuPercentMean}% of a core on average`);
  if (m.droppedIterations) notes.push(`${m.droppedIterations} iterations dropped`);
  return {
    index,
    startedAt: startedAt.toISOString(),
    durationSeconds: m.durationSeconds,
    requests: m.requests,
    errors: m.errors,
    throughput: m.throughput,
    latencyMs: m.latencyMs,
    ...(m.droppedIterations !== undefined ? { droppedIterations: m.droppedIterations } : {}),
    ...(serverUsage ? { server: serverUsage } : {}),
    ...(databaseUsage ? { database: databaseUsage } : {}),
    ...(generator ? { generator } : {}),
    generatorBound: busy || (m.droppedIterations ?? 0) > 0,
    ...(notes.length > 0 ? { notes } : {}),
  };
}

/** Finds the database server's process (to sample it) and pins it to the server side's cores. */
async function placeDatabase(db: DatabaseServer, placement: Placement): Promise<{ pid: number | undefined; pinned: boolean }> {
  const pid = listenerPid(Number(new URL(db.url).port));
  if (pid === undefined) {
    console.log('database: its process is not visible here: neither sampled nor pinned');
    return { pid, pinned: false };
  }
  if (!placement.database) return { pid, pinned: false };
  try {
    await pinProcess(pid, placement.database);
    return { pid, pinned: true };
  } catch (error) {
    console.log(`database: could not pin pid ${pid}: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
    return { pid, pinned: false };
  }
}

