// A benchmark run of one or more implementations on one API: the conformance gate (for
// each), the API's databases seeded with the paper's data by its dataset module (apis/<api>/),
// then every selected case (bench/src/case-loop.ts: restarts, alternating repetitions,
// sampling, failures recorded) and one result document per implementation, checked
// against its schema and rewritten after every case (bench/src/run-record.ts), so that a
// run stopped early can be continued (RESUME, bench/src/resume.ts). The database-alone
// cases are measured once and recorded in each.
import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import { join, relative } from 'node:path';
import { onCleanup, shuttingDown } from '@fairbench/harness/cleanup.ts';
import { implTreeHash, sourceRevision, specHash } from '@fairbench/harness/fingerprint.ts';
import { contractEnv, poolSizeFromEnv } from '@fairbench/harness/impl/contract-env.ts';
import { buildImplementation, startImplementation, type RunningImplementation } from '@fairbench/harness/impl/launch.ts';
import { seed } from '@fairbench/harness/api/dataset.ts';
import { UnknownApiError } from '@fairbench/harness/api/manifest.ts';
import type { Implementation } from '@fairbench/harness/impl/manifest.ts';
import { CannotRun, checkServes, implementation } from '@fairbench/harness/cli/usage.ts';
import { missingToolchain } from '@fairbench/harness/impl/toolchain.ts';
import { imageUnavailable } from '@fairbench/harness/impl/container.ts';
import { repoRoot } from '@fairbench/harness/paths.ts';
import { chooseProvider, type DatabaseProvider, type DatabaseServer, type RuntimeProviderName } from '@fairbench/harness/provision/index.ts';
import { runtimeVersion } from '@fairbench/harness/runtime-version.ts';
import type { PlannedCase } from './api-module.ts';
import { benchApi, type BenchApi } from './apis.ts';
import { asCopy, distinctOriginals, implCopies, originalOf } from './copies.ts';
import { documentImplementation } from './document-impl.ts';
import { runCases } from './case-loop.ts';
import { settle } from './settle.ts';
import { NO_WARMUP_ITERATIONS, plannedWarmups, type WarmupIterations } from './warm-up.ts';
import { databaseDown } from './db-probe.ts';
import { UsageError } from './failure.ts';
import type { GateRecord } from './gate.ts';
import { k6Version, scriptEnv, startK6, type RunSettings } from './k6.ts';
import { choosePlacement, listenerPid, pinProcess, type Placement } from './placement.ts';
import { startK6Instances } from './k6-instances.ts';
import { loadTopology, placementOf, recordedTopology, type Topology } from './topology/topology.ts';
import type { Host } from '@fairbench/harness/hosts/host.ts';
import type { LocalDatabaseServer } from '@fairbench/harness/provision/local/index.ts';
import { crossCheckFromEnv, wrkCrossCheck } from './cross-check.ts';
import { preflight } from './preflight.ts';
import type { EtaOverheads } from './profiles.ts';
import { NO_OVERHEAD, plannedSeconds, Progress, type StepLoad } from './progress.ts';
import { FilteredOut } from './select.ts';
import { machineFacts, newRunId } from './result.ts';
import { isDatabaseAlone, type BenchResult } from './result-document.ts';
import { checkResumedDatabase, loadResume, type ResumeState } from './resume.ts';
import { RunRecorder, type DocumentHead, type FailedCase } from './run-record.ts';

export interface BenchOptions {
  /** One or more implementations: several are benchmarked in the same run, alternating. */
  readonly impls: readonly string[];
  readonly api: string;
  readonly repeat: number;
  readonly durationSeconds: number;
  readonly warmupSeconds: number;
  /** A served case's first load's warm-up (the implementation's first since its start); below warmupSeconds it is warmupSeconds. */
  readonly firstWarmupSeconds: number;
  /** Unrecorded iterations before a served case's repetitions (bench/src/warm-up.ts); absent or max 0: none. */
  readonly warmupIterations?: WarmupIterations;
  readonly quick: boolean;
  /** The profile the options came from (bench/profiles.yaml), recorded in the result. */
  readonly profile?: string;
  /** What a repetition and a case cost besides their load, for the ETA (bench/profiles.yaml `eta`). */
  readonly eta?: EtaOverheads;
  readonly protocols?: readonly string[];
  readonly cases?: string;
  /** Which native-tier cases to keep (make bench-smoke's bench.smoke.native); default: every kept point's. */
  readonly native?: string;
  readonly models?: readonly string[];
  readonly pin: boolean;
  readonly seed: number;
  /** The id of a run stopped before its end: its recorded cases are kept and the rest run. */
  readonly resume?: string;
  /** The run id to give a new run (a run of several APIs shares one); default: its start time. */
  readonly runId?: string;
  /** TOPOLOGY: a topology file (bench/src/topology/): the database, the implementation and the generators on the hosts it names. */
  readonly topology?: string;
}

export interface BenchOutcome {
  readonly runId: string;
  /** One document per implementation. */
  readonly files: string[];
  /** Every planned case is recorded (measured or failed). */
  readonly complete: boolean;
  readonly failed: FailedCase[];
}

export { inOrder, roundOrder } from './case-loop.ts';

/** A run checked and planned, nothing started yet: its gate, then the run itself. */
export interface PreparedBench {
  readonly api: string;
  readonly runId: string;
  /** The cases the run plans, and how many of them a resumed run has recorded already. */
  readonly planned: number;
  readonly recorded: number;
  /** The seconds the cases still to run take by the plan (load, k6's start, restarts): the ETA before the first case. */
  readonly plannedSeconds: number;
  /** The conformance gate of every implementation (GateRefusal when one does not pass). */
  gate(): Promise<void>;
  /** The run (after gate()): one result document per implementation. */
  run(): Promise<BenchOutcome>;
}

/**
 * Runs the benchmark and writes one result document per implementation: after every
 * case (complete: false) and at the end. A case that fails is recorded with its reason
 * and the run goes on; only a bug, the gate or an interruption ends it early.
 */
export async function runBench(opts: BenchOptions): Promise<BenchOutcome> {
  const prepared = await prepareBench(opts);
  await prepared.gate();
  return prepared.run();
}

/**
 * Everything a usage error can come from, before anything starts: the API, the
 * implementations (each must serve it), the cases the filters keep, a RESUME's documents.
 */
export async function prepareBench(opts: BenchOptions): Promise<PreparedBench> {
  const sessionStarted = new Date();
  const api = await benchApi(opts.api).catch((error: unknown) => {
    throw error instanceof UnknownApiError ? new UsageError(error.message) : error;
  });
  if (opts.impls.length === 0) throw new UsageError('give at least one implementation');
  // One name given twice is an A/A calibration run (copies.ts): each copy gets its own label.
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
  const names = impls.map((i) => i.manifest.name);

  const plan = await api.module.plan({
    quick: opts.quick,
    ...(opts.protocols ? { protocols: opts.protocols } : {}),
    ...(opts.cases ? { cases: opts.cases } : {}),
    ...(opts.native !== undefined ? { native: opts.native } : {}),
    ...(opts.models ? { models: opts.models } : {}),
  }, api.scenarioFile);
  const cases = plan.cases;
  if (cases.length === 0) throw new FilteredOut(`no case of ${relative(repoRoot, api.scenarioFile)} matches the filters (PROTOCOL, CASES, MODEL)`);
  const options: BenchResult['options'] = {
    repeat: opts.repeat,
    durationSeconds: opts.durationSeconds,
    warmupSeconds: opts.warmupSeconds,
    ...(firstWarmup(opts) > opts.warmupSeconds ? { firstWarmupSeconds: firstWarmup(opts) } : {}),
    ...(opts.warmupIterations && opts.warmupIterations.max > 0 ? { warmupIterations: { ...opts.warmupIterations } } : {}),
    quick: opts.quick,
    ...(opts.profile ? { profile: opts.profile } : {}),
    protocols: [...new Set(cases.map((c) => c.protocol))],
    cases: opts.cases ?? null,
    models: [...plan.models],
    ...(impls.length > 1 ? { implementations: names } : {}),
    restartBetweenCases: true,
    scenarioFile: relative(repoRoot, api.scenarioFile),
    scenarioHash: `sha256:${createHash('sha256').update(plan.text).digest('hex')}`,
    seed: opts.seed,
  };
  poolSizeFromEnv(); // DB_POOL_SIZE checked now, not after the gate
  // Local processes unless FAIRBENCH_RUNTIME=containers: on one small machine the runtime adds no noise of its own.
  const provider = chooseProvider({ default: 'local' });
  if (opts.topology && provider.name !== 'local') throw new UsageError('TOPOLOGY places local processes on its hosts: it cannot be given with RUNTIME=containers');
  if (opts.topology && process.env['CROSSCHECK']) throw new UsageError('CROSSCHECK=wrk runs wrk on this host: it cannot be given with TOPOLOGY');
  // The hosts are probed (and a run on other machines than the file names refused) before anything starts.
  const topology = opts.topology ? await loadTopology(opts.topology) : undefined;
  const placement = topology ? placementOf(topology) : choosePlacement(opts.pin);
  const crossCheck = (() => {
    try {
      return crossCheckFromEnv();
    } catch (error) {
      throw new UsageError(error instanceof Error ? error.message : String(error));
    }
  })();

  // RESUME: refused before anything starts unless it is the same run.
  const resumed = opts.resume
    ? await loadResume(opts.api, names, opts.resume, {
        options,
        implTreeHashes: new Map(await Promise.all(impls.map(async (i) => [i.manifest.name, await implTreeHash(i.dir)] as const))),
        placement,
      })
    : undefined;
  // The options are right: can it run here?
  for (const impl of distinctOriginals(impls)) {
    const missing = (await missingToolchain(impl)) ?? (provider.name === 'containers' ? imageUnavailable(impl) : null);
    if (missing) throw new CannotRun(`${impl.manifest.name} cannot run here: ${missing}`);
  }
  const remaining = cases.filter((c) => !resumed?.done.has(c.id));
  const runId = resumed?.runId ?? opts.runId ?? newRunId(sessionStarted);
  const gates = new Map<string, GateRecord>();
  return {
    api: opts.api,
    runId,
    planned: cases.length,
    recorded: cases.length - remaining.length,
    plannedSeconds: plannedSeconds(stepLoads(remaining, impls.length, api, opts), opts.repeat, opts.eta ?? NO_OVERHEAD),
    // The gate applies to each implementation: one that does not pass stops the whole run.
    gate: async () => {
      // The conformance suite loads only here: usage errors are answered without it.
      const { passGate } = await import('./gate.ts');
      for (const impl of impls) gates.set(impl.manifest.name, await passGate(originalOf(impl), opts.api));
    },
    run: () => {
      if (gates.size !== impls.length) throw new Error('prepareBench: run() before gate()');
      if (resumed) console.log(`resuming run ${runId} of ${opts.api}: ${cases.length - remaining.length} of ${cases.length} cases recorded, ${remaining.length} to run`);
      return execute({ opts, api, impls, names, cases, remaining, options, placement, topology, provider, resumed, runId, gates, sessionStarted: new Date(), crossCheck: Boolean(crossCheck) });
    },
  };
}

interface Execution {
  readonly opts: BenchOptions;
  readonly api: BenchApi;
  readonly impls: readonly Implementation[];
  readonly names: readonly string[];
  readonly cases: readonly PlannedCase[];
  readonly remaining: readonly PlannedCase[];
  readonly options: BenchResult['options'];
  readonly placement: Placement;
  /** Where each party runs (TOPOLOGY); undefined: on this host, as `placement` pins them. */
  readonly topology: Topology | undefined;
  readonly provider: DatabaseProvider;
  readonly resumed: ResumeState | undefined;
  readonly runId: string;
  readonly gates: ReadonlyMap<string, GateRecord>;
  readonly sessionStarted: Date;
  /** CROSSCHECK=wrk: the closed-model cases measured by wrk too. */
  readonly crossCheck: boolean;
}

/** Databases, seeding, the cases and the documents of a prepared run whose gate passed. */
async function execute({ opts, api, impls, names, cases, remaining, options, placement, topology, provider, resumed, runId, gates, sessionStarted, crossCheck }: Execution): Promise<BenchOutcome> {
  const generatorVersion = await k6Version().catch(() => {
    throw new Error('k6 is not installed: run make setup');
  });

  // On a topology's database host, the server lets in the harness and the other hosts only.
  const onHosts = topology ? { host: topology.database, clients: [topology.controllerAddress, topology.implementation.address, ...topology.generators.map((g) => g.address)] } : {};
  const servers = await Promise.all(api.manifest.databases.map((kind) => provider.start(kind, onHosts)));
  const databases = new Map(servers.map((d) => [d.kind, d]));
  // The first database kind the manifest names is the one sampled and recorded (every API here has one).
  const db = servers[0]!;
  const place = (d: DatabaseServer) => (topology ? placedOnHost(d, topology.database) : placeDatabase(d, placement));
  for (const other of servers.slice(1)) await place(other);
  const runtime = db.provider;
  const database = await place(db);
  const recordedPlacement: Placement = { ...placement, database: database.pinned ? placement.database : null };
  console.log(`database: ${db.engine.name} ${db.engine.version} (${db.provider})${database.pinned ? ` pinned to core ${placement.database?.join(',')}` : ''}`);

  const seeded = await seed(api, 'paper', databases);
  console.log(`seeded ${api.name}: ${Object.entries(seeded.info.rows).map(([t, n]) => `${n} ${t}`).join(', ')} in ${seeded.info.loadMs} ms`);
  const prepared = await api.module.prepare(seeded, databases);
  if (resumed) checkResumedDatabase(resumed, { provider: db.provider, fingerprint: seeded.info.fingerprint, engine: db.engine.name, version: db.engine.version });
  const settings: RunSettings = { warmupSeconds: opts.warmupSeconds, durationSeconds: opts.durationSeconds, seed: opts.seed };
  // A served case's first load (its first warm-up iteration, or else its first repetition) is its implementation's first since it started.
  const settingsOf = (first: boolean): RunSettings => (first ? { ...settings, warmupSeconds: firstWarmup(opts) } : settings);

  for (const impl of distinctOriginals(impls)) await buildImplementation(impl, { runtime });
  const env = (port: number) => contractEnv({ port, databases: servers });
  const poolSize = Number(env(0)['DB_POOL_SIZE']);
  const workDir = await mkdtemp(join(os.tmpdir(), 'fairbench-bench-'));
  onCleanup(`bench work dir ${workDir}`, () => rm(workDir, { recursive: true, force: true }));
  const script = api.script;
  // The generator's ceiling is measured on this host against nginx here: it says nothing of other hosts.
  const { noise, ceiling } = await preflight(placement, workDir, opts.quick, !topology);

  const revision = await sourceRevision();
  const spec = await specHash();
  const limitTier = api.manifest.bench.limit;
  const runtimes = new Map<string, string>();
  const head = async (name: string): Promise<DocumentHead> => {
    const impl = impls.find((i) => i.manifest.name === name)!;
    if (!runtimes.has(name)) runtimes.set(name, await runtimeVersion(impl));
    return {
      schemaVersion: 1,
      runId,
      api: opts.api,
      startedAt: resumed?.startedAt ?? sessionStarted.toISOString(),
      ...(resumed ? { resumedAt: [...resumed.resumedAt, sessionStarted.toISOString()] } : {}),
      options,
      implementation: documentImplementation(impl, { runtimeVersion: runtimes.get(name)!, implTreeHash: gates.get(name)!.implTreeHash, poolSize }),
      gate: gates.get(name)!,
      source: { commit: revision.commit, dirty: revision.dirty, specHash: spec },
      dataset: seeded.info,
      database: { kind: db.kind, engine: db.engine.name, version: db.engine.version },
      provider: db.provider,
      machine: { ...machineFacts(recordedPlacement), noise, ...(topology ? { topology: recordedTopology(topology) } : {}) },
      generator: { name: 'k6', version: generatorVersion, ...(ceiling ? { ceiling } : {}) },
      ...(limitTier ? { limit: limitTier } : {}),
    };
  };
  const recorder = new RunRecorder({
    impls: names,
    planned: cases.map((c) => c.id),
    head,
    sessionStarted,
    ...(resumed ? { prior: resumed.cases, priorWallSeconds: resumed.wallSeconds } : {}),
  });
  // Written before the first case, so that even a run killed in it can be resumed.
  const files = await recorder.write();
  const hint = onCleanup('bench: how to continue', async () => {
    console.error(`bench: run ${runId} stopped with ${recorder.recordedCases} of ${cases.length} cases recorded in ${files.map((f) => relative(repoRoot, f)).join(', ')} (complete: false)`);
    console.error(`bench: to continue it, give the same options and RESUME=${runId}`);
  });

  const progress = new Progress(stepLoads(remaining, impls.length, api, opts), opts.repeat, opts.eta ?? NO_OVERHEAD);
  await runCases(remaining, {
    impls: names,
    repeat: opts.repeat,
    progress,
    limitSeconds: (c, first) => api.module.limitSeconds(c, settingsOf(first)),
    startServer: async (name) => {
      const impl = impls.find((i) => i.manifest.name === name)!;
      const server = topology ? await startImplementation(impl, env, { runtime, host: topology.implementation }) : await startServer(impl, env, runtime, placement.implementation);
      if (server.runtimeVersion) runtimes.set(name, server.runtimeVersion);
      return server;
    },
    startLoad: (c, server, limitSeconds, first) => {
      const env = scriptEnv(server.baseUrl, api.module.plannedSeconds(c, settingsOf(first)), prepared.k6Env(c, settingsOf(first)));
      // On a topology's generator hosts: one k6 instance on each, sharing the scenario by execution segments.
      return topology ? startK6Instances(c.id, env, topology.generators, { script, workDir, limitSeconds }) : startK6(c.id, env, { script, cores: placement.generator, workDir, limitSeconds });
    },
    // Recorded on the first loads exactly as in the run's options.
    ...(options.firstWarmupSeconds !== undefined ? { firstWarmupSeconds: options.firstWarmupSeconds } : {}),
    ...(options.warmupIterations ? { warmupIterations: options.warmupIterations } : {}),
    startBaseline: (c, limitSeconds) => prepared.startBaseline(c, settings, { cores: placement.generator, workDir, poolSize, limitSeconds, ...(topology ? { host: topology.generators[0]! } : {}) }),
    // Where the load writes, every repetition starts from the seed.
    ...(api.manifest.bench.writes ? { reset: () => seeded.reset() } : {}),
    ...(prepared.afterRepetition ? { afterRepetition: (c: PlannedCase) => prepared.afterRepetition!(c) } : {}),
    databaseDown: () => databaseDown(db.url),
    databasePid: database.pid,
    settle: (roots) => settle(roots),
    ceilingRate: ceiling?.rate,
    // Randomized interleaved trials: each round's order drawn per run and case (interleave.ts).
    orderKey: runId,
    ...(crossCheck ? { crossCheck: wrkCrossCheck(prepared.wrkLoad?.bind(prepared), settings, { cores: placement.generator, workDir }) } : {}),
    recorded: async (_c, records) => {
      recorder.record(records);
      await recorder.write();
    },
    stopping: shuttingDown,
  });

  const written = await recorder.write();
  hint();
  for (const d of servers) await d.stop();
  return { runId, files: written, complete: recorder.complete, failed: recorder.failed() };
}

/** Per step of the case loop (a database-alone case once, a served case per implementation), one load's planned seconds, what its first adds, and its warm-up iterations. */
function stepLoads(cases: readonly PlannedCase[], impls: number, api: BenchApi, opts: BenchOptions): StepLoad[] {
  const settings: RunSettings = { warmupSeconds: opts.warmupSeconds, durationSeconds: opts.durationSeconds, seed: opts.seed };
  const longer = firstWarmup(opts) - opts.warmupSeconds;
  return cases.flatMap((c) => {
    const served = !isDatabaseAlone(c.protocol);
    // A case on a fresh server each repetition warms none and has every repetition's first warm-up.
    const fresh = c.freshServerEachRepetition === true;
    return Array<StepLoad>(served ? impls : 1).fill({
      seconds: api.module.plannedSeconds(c, settings) + (served && fresh ? longer : 0),
      firstExtra: served && !fresh ? longer : 0,
      warmups: served && !fresh ? plannedWarmups(opts.warmupIterations ?? NO_WARMUP_ITERATIONS) : 0,
    });
  });
}

/** The warm-up of a served case's first load: the given one, never shorter than every repetition's. */
function firstWarmup(opts: BenchOptions): number {
  return Math.max(opts.warmupSeconds, opts.firstWarmupSeconds);
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
  // A copy of an A/A run runs from the implementation's own image.
  const server = await startImplementation(originalOf(impl), env, { runtime });
  if (cpus) await pinProcess(server.process.pid, cpus);
  return server;
}

/** A database started on a topology's host: its process (in another network namespace, so not found by its port) was pinned by the host's cores. */
function placedOnHost(db: DatabaseServer, host: Host): { pid: number | undefined; pinned: boolean } {
  const pid = 'process' in db ? (db as LocalDatabaseServer).process.pid : undefined;
  return { pid, pinned: host.cores !== null };
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

