// A benchmark run of one or more implementations on one API: the conformance gate (for
// each), the API's databases seeded with the paper's data by its dataset module (apis/<api>/),
// then every selected case — the implementations restarted before each, the repetitions
// alternating between them (A B, B A, …) on the same data (reset before each repetition
// where the API writes), k6 (or the baseline client) pinned to the generator's core, the
// process trees sampled at 10 Hz — and one result document per implementation, checked
// against its schema. The database-alone cases are measured once and recorded in each.
import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import { join, relative } from 'node:path';
import { onCleanup, shuttingDown } from '@fairbench/harness/cleanup.ts';
import { sourceRevision, specHash } from '@fairbench/harness/fingerprint.ts';
import { contractEnv } from '@fairbench/harness/impl/contract-env.ts';
import { buildImplementation, startImplementation, type RunningImplementation } from '@fairbench/harness/impl/launch.ts';
import { seed } from '@fairbench/harness/api/dataset.ts';
import { loadImplementation, type Implementation } from '@fairbench/harness/impl/manifest.ts';
import { missingToolchain } from '@fairbench/harness/impl/toolchain.ts';
import { repoRoot } from '@fairbench/harness/paths.ts';
import { chooseProvider, type DatabaseServer, type RuntimeProviderName } from '@fairbench/harness/provision/index.ts';
import { runtimeVersion } from '@fairbench/harness/runtime-version.ts';
import { benchApi } from './apis.ts';
import { passGate, type GateRecord } from './gate.ts';
import { k6Version, startK6, type RunSettings, type StartedLoad } from './k6.ts';
import { choosePlacement, listenerPid, pinProcess, type Placement } from './placement.ts';
import { TreeSampler } from './proc-sampler.ts';
import { Progress } from './progress.ts';
import { machineFacts, newRunId, writeResult } from './result.ts';
import type { PlannedCase, Prepared } from './api-module.ts';
import type { BenchCase, BenchResult, Repetition } from './result-document.ts';

export interface BenchOptions {
  /** One or more implementations: several are benchmarked in the same run, alternating. */
  readonly impls: readonly string[];
  readonly api: string;
  readonly repeat: number;
  readonly durationSeconds: number;
  readonly warmupSeconds: number;
  readonly quick: boolean;
  readonly protocols?: readonly string[];
  readonly cases?: string;
  readonly models?: readonly string[];
  readonly pin: boolean;
  readonly seed: number;
}

/** k6 (or the baseline client) busier than this share of its core measured itself, not the server. */
const GENERATOR_BOUND_CPU_PERCENT = 80;

/**
 * The order of the implementations in repetition r (1-based): as given in odd
 * repetitions, reversed in even ones (A B, B A, A B, …), so that a machine drifting
 * during a case favours none of them.
 */
export function roundOrder<T>(impls: readonly T[], r: number): T[] {
  return r % 2 === 1 ? [...impls] : [...impls].reverse();
}

/** Runs the benchmark; returns the result files written, one per implementation. */
export async function runBench(opts: BenchOptions): Promise<string[]> {
  const started = new Date();
  const api = await benchApi(opts.api);
  if (opts.impls.length === 0) throw new Error('give at least one implementation');
  if (new Set(opts.impls).size !== opts.impls.length) throw new Error(`IMPL names an implementation twice: ${opts.impls.join(',')}`);
  const impls: Implementation[] = [];
  for (const name of opts.impls) {
    const impl = await loadImplementation(name);
    if (!impl.manifest.apis.includes(opts.api)) throw new Error(`${name} does not implement the ${opts.api} API (impl.yaml apis: ${impl.manifest.apis.join(', ')})`);
    const missing = await missingToolchain(impl.manifest);
    if (missing) throw new Error(`${name} cannot run here: ${missing}`);
    impls.push(impl);
  }

  const plan = await api.module.plan({
    quick: opts.quick,
    ...(opts.protocols ? { protocols: opts.protocols } : {}),
    ...(opts.cases ? { cases: opts.cases } : {}),
    ...(opts.models ? { models: opts.models } : {}),
  }, api.scenarioFile);
  const cases = plan.cases;
  if (cases.length === 0) throw new Error(`no case of ${relative(repoRoot, api.scenarioFile)} matches the filters (PROTOCOL, CASES, MODEL)`);

  // The gate applies to each implementation: one that does not pass stops the whole run.
  const gates = new Map<string, GateRecord>();
  for (const impl of impls) gates.set(impl.manifest.name, await passGate(impl, opts.api));
  const generatorVersion = await k6Version().catch(() => {
    throw new Error('k6 is not installed: run make setup');
  });

  const placement = choosePlacement(opts.pin);
  // Local processes unless FAIRBENCH_RUNTIME=containers: on one small machine the runtime adds no noise of its own.
  const provider = chooseProvider({ default: 'local' });
  const servers = await Promise.all(api.manifest.databases.map((kind) => provider.start(kind)));
  const databases = new Map(servers.map((d) => [d.kind, d]));
  // The first database kind the manifest names is the one sampled and recorded (every API here has one).
  const db = servers[0]!;
  for (const other of servers.slice(1)) await placeDatabase(other, placement);
  const runtime = db.provider;
  const database = await placeDatabase(db, placement);
  const recordedPlacement: Placement = { ...placement, database: database.pinned ? placement.database : null };
  console.log(`database: ${db.engine.name} ${db.engine.version} (${db.provider})${database.pinned ? ` pinned to core ${placement.database?.join(',')}` : ''}`);

  const seeded = await seed(api, 'paper', databases);
  console.log(`seeded ${api.name}: ${Object.entries(seeded.info.rows).map(([t, n]) => `${n} ${t}`).join(', ')} in ${seeded.info.loadMs} ms`);
  const prepared = await api.module.prepare(seeded, databases);
  const settings: RunSettings = { warmupSeconds: opts.warmupSeconds, durationSeconds: opts.durationSeconds, seed: opts.seed };

  for (const impl of impls) await buildImplementation(impl, { runtime });
  const env = (port: number) => contractEnv({ port, databases: servers });
  const poolSize = Number(env(0)['DB_POOL_SIZE']);
  const workDir = await mkdtemp(join(os.tmpdir(), 'fairbench-bench-'));
  onCleanup(`bench work dir ${workDir}`, () => rm(workDir, { recursive: true, force: true }));
  const script = api.script;

  const rounds = cases.map((c) => (c.protocol === 'database' ? 1 : impls.length));
  const progress = new Progress(
    rounds.reduce((a, b) => a + b, 0),
    opts.repeat,
    cases.reduce((a, c, i) => a + api.module.plannedSeconds(c, settings) * rounds[i]!, 0) / rounds.reduce((a, b) => a + b, 0),
  );
  const results = new Map<string, BenchCase[]>(impls.map((i) => [i.manifest.name, []]));
  const runtimes = new Map<string, string>();
  let step = 0;
  for (const c of cases) {
    const repetitions = new Map<string, Repetition[]>(impls.map((i) => [i.manifest.name, []]));
    const running = new Map<string, RunningImplementation>();
    const limitSeconds = api.module.limitSeconds(c, settings);
    try {
      if (c.protocol === 'database') {
        // The limit is one measurement shared by every implementation's document.
        step++;
        const reps: Repetition[] = [];
        for (let r = 1; r <= opts.repeat; r++) {
          progress.begin(step, r, c.id);
          if (api.manifest.bench.writes) await seeded.reset();
          const repStarted = new Date();
          const load = await prepared.startBaseline(c, settings, { cores: placement.generator, workDir, poolSize, limitSeconds });
          reps.push(await checked(prepared, c, await measure(r, repStarted, load, undefined, database.pid, c.requestTypes)));
          progress.end();
          if (shuttingDown()) throw new Error('interrupted');
        }
        for (const impl of impls) repetitions.set(impl.manifest.name, reps);
        progress.caseLine(c.id, reps);
      } else {
        // Restarted before every case, as the paper did: no case inherits another's heap or JIT state.
        for (const impl of impls) {
          const server = await startServer(impl, env, runtime, placement.implementation);
          running.set(impl.manifest.name, server);
          if (server.runtimeVersion) runtimes.set(impl.manifest.name, server.runtimeVersion);
        }
        const first = step + 1;
        step += impls.length;
        for (let r = 1; r <= opts.repeat; r++) {
          for (const [place, impl] of roundOrder(impls, r).entries()) {
            const name = impl.manifest.name;
            const server = running.get(name)!;
            progress.begin(first + impls.indexOf(impl), r, impls.length > 1 ? `${c.id} · ${name}` : c.id);
            if (api.manifest.bench.writes) await seeded.reset();
            const repStarted = new Date();
            const load = startK6(c.id, { BASE_URL: server.baseUrl, ...prepared.k6Env(c, settings) }, { script, cores: placement.generator, workDir, limitSeconds });
            const rep = await checked(prepared, c, await measure(r, repStarted, load, server, database.pid, c.requestTypes));
            repetitions.get(name)!.push(impls.length > 1 ? { ...rep, order: place + 1 } : rep);
            progress.end();
            if (shuttingDown()) throw new Error('interrupted');
          }
        }
        for (const impl of impls) progress.caseLine(impls.length > 1 ? `${c.id} · ${impl.manifest.name}` : c.id, repetitions.get(impl.manifest.name)!);
      }
    } finally {
      for (const server of running.values()) await server.stop();
    }
    for (const impl of impls) {
      results.get(impl.manifest.name)!.push({ id: c.id, protocol: c.protocol, model: c.model, parameters: c.parameters, repetitions: repetitions.get(impl.manifest.name)! });
    }
  }

  const finished = new Date();
  const revision = await sourceRevision();
  const spec = await specHash();
  const files: string[] = [];
  for (const impl of impls) {
    const name = impl.manifest.name;
    const gate = gates.get(name)!;
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
        models: [...plan.models],
        ...(impls.length > 1 ? { implementations: impls.map((i) => i.manifest.name) } : {}),
        restartBetweenCases: true,
        scenarioFile: relative(repoRoot, api.scenarioFile),
        scenarioHash: `sha256:${createHash('sha256').update(plan.text).digest('hex')}`,
      },
      implementation: {
        name,
        language: impl.manifest.language,
        framework: { ...impl.manifest.framework },
        runtime: { name: impl.manifest.runtime.name, version: runtimes.get(name) ?? (await runtimeVersion(impl.manifest.runtime.name)) },
        implTreeHash: gate.implTreeHash,
        poolSize,
        tuning: [impl.manifest.tuning],
      },
      gate,
      source: { commit: revision.commit, dirty: revision.dirty, specHash: spec },
      dataset: seeded.info,
      database: { kind: db.kind, engine: db.engine.name, version: db.engine.version },
      provider: db.provider,
      machine: machineFacts(recordedPlacement),
      generator: { name: 'k6', version: generatorVersion },
      cases: results.get(name)!,
    };
    files.push(await writeResult(doc, name));
  }
  for (const d of servers) await d.stop();
  return files;
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
async function measure(index: number, startedAt: Date, load: StartedLoad, server: RunningImplementation | undefined, databasePid: number | undefined, order: readonly string[] = []): Promise<Repetition> {
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
    ...(m.serverMs ? { serverMs: m.serverMs } : {}),
    ...(m.requestTypes ? { requestTypes: inOrder(m.requestTypes, order) } : {}),
    ...(m.droppedIterations !== undefined ? { droppedIterations: m.droppedIterations } : {}),
    ...(serverUsage ? { server: serverUsage } : {}),
    ...(databaseUsage ? { database: databaseUsage } : {}),
    ...(generator ? { generator } : {}),
    generatorBound: busy || (m.droppedIterations ?? 0) > 0,
    ...(notes.length > 0 ? { notes } : {}),
  };
}

/** The repetition, marked invalid with the reasons in its notes when the data broke the API's conditions. */
async function checked<C extends PlannedCase>(prepared: Prepared<C>, c: C, rep: Repetition): Promise<Repetition> {
  const violations = (await prepared.afterRepetition?.(c)) ?? [];
  if (violations.length === 0) return rep;
  console.log(`  INVALID repetition ${rep.index} of ${c.id}: ${violations.length} violated condition(s), first: ${violations[0]}`);
  return { ...rep, invalid: true, notes: [...(rep.notes ?? []), ...violations.map((v) => `invalid: ${v}`)] };
}

/** The request types in the case's order (k6's summary has its own), any others after them. */
export function inOrder<T>(types: Record<string, T>, order: readonly string[]): Record<string, T> {
  const names = [...order.filter((n) => n in types), ...Object.keys(types).filter((n) => !order.includes(n))];
  return Object.fromEntries(names.map((n) => [n, types[n]!]));
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

