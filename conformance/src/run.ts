// Runs the conformance suite: provisions the databases the selected APIs need,
// seeds them, builds and starts each implementation, runs every case, writes a
// verdict per implementation × API and the compliance matrix, and stops
// everything it started (also on failure or Ctrl-C).
import os from 'node:os';
import { apiNames } from '@fairbench/harness/api/manifest.ts';
import { onlyDefectsOf, treeHash, implTreeHash, sourceRevision, specHash } from '@fairbench/harness/fingerprint.ts';
import { checkPairs } from '@fairbench/harness/cli/usage.ts';
import { loadImplementation, loadImplementations, type Implementation } from '@fairbench/harness/impl/manifest.ts';
import { missingToolchain } from '@fairbench/harness/impl/toolchain.ts';
import { shuttingDown } from '@fairbench/harness/cleanup.ts';
import { imageUnavailable } from '@fairbench/harness/impl/container.ts';
import {
  chooseRuntime,
  requestedRuntime,
  type ChooseProviderOptions,
  type DatabaseKind,
  type DatabaseServer,
  type ProviderChoice,
  type RuntimeProviderName,
} from '@fairbench/harness/provision/index.ts';
import { runtimeVersion } from '@fairbench/harness/runtime-version.ts';
import { fixtureOf, type AnyPreparedApi, type SuiteName } from './api-module.ts';
import { conformanceApis, type ConformanceApi } from './apis.ts';
import { loadCaseFile } from './case-files.ts';
import type { SuiteContext } from './context.ts';
import type { CaseResult } from './outcome.ts';
import { byImplementation, launchTarget, launchTargets, type LaunchedTarget, type Target } from './launch-target.ts';
import { printBanner, printCase, printSkip, yellow } from './report/console.ts';
import { writeVerdict, type Verdict } from './report/verdict.ts';
import { loadSpecSchema } from './spec/graphql.ts';
import { OpenApiValidator } from './spec/openapi.ts';
import { runBadInput } from './suites/bad-input.ts';
import { runFlows } from './suites/flows.ts';
import { runProtocol } from './suites/protocol.ts';
import { runQuestions } from './suites/questions.ts';
import { runScenarios } from './suites/scenarios.ts';

export interface RunOptions {
  /** Called with each case result as it completes (default: print it). */
  readonly onCase?: (result: CaseResult) => void;
  /**
   * Only these case ids (absent: every case): their suites run, and of the flows only these.
   * The verdict then counts those cases alone.
   */
  readonly only?: readonly string[];
}

export interface Selection {
  readonly impls?: readonly string[];
  readonly apis?: readonly string[];
  /**
   * Where the pairs run without FAIRBENCH_RUNTIME: 'auto' (default; containers when they work
   * here) or 'local' (the benchmark's gate: where the benchmark itself runs).
   */
  readonly runtime?: ChooseProviderOptions['default'];
}

export interface SpecValidators {
  readonly openapi: OpenApiValidator;
  readonly graphqlSchema: SuiteContext['graphqlSchema'];
}

export interface Fingerprints {
  readonly specHash: string;
  readonly suiteHash: string;
  /** Why the run's runtime (local or containers) was chosen. */
  readonly providerReason?: string;
}

export interface Skip {
  readonly impl: Implementation;
  readonly api: string;
  readonly reason: string;
}

/**
 * The implementation × API pairs to run here, and those that cannot run (each skip printed
 * loudly): locally an implementation needs its toolchain, in containers a base image.
 */
export async function selectTargets(selection: Selection, runtime: RuntimeProviderName = 'local'): Promise<{ targets: Target[]; skips: Skip[] }> {
  await checkPairs(selection.impls, selection.apis);
  // Named (variants included: express@bun), or every implementation on its default runtime.
  // (express and express@node are one implementation: once.)
  const all = selection.impls
    ? (await Promise.all(selection.impls.map((n) => loadImplementation(n)))).filter(
        (i, k, xs) => xs.findIndex((j) => j.manifest.name === i.manifest.name) === k,
      )
    : await loadImplementations();
  const apis = new Map((await conformanceApis()).map((a) => [a.name, a]));
  const targets: Target[] = [];
  const skips: Skip[] = [];
  // The APIs asked for (default: every API under apis/, and every API a manifest lists).
  const wanted = (impl: Implementation): string[] =>
    [...new Set([...apis.keys(), ...impl.manifest.apis])].filter((a) => !selection.apis || selection.apis.includes(a));
  for (const impl of all) {
    for (const apiName of wanted(impl).filter((a) => !impl.manifest.apis.includes(a))) {
      // An implementation need not serve every API; say so rather than stay silent.
      const reason = `impl/${impl.variant.folder}/impl.yaml does not list the ${apiName} API (apis: ${impl.manifest.apis.join(', ')})`;
      printSkip(impl.manifest.name, apiName, reason);
      skips.push({ impl, api: apiName, reason });
    }
    for (const apiName of impl.manifest.apis.filter((a) => !selection.apis || selection.apis.includes(a))) {
      const api = apis.get(apiName);
      const { reason, local } =
        api === undefined
          ? { reason: `there is no apis/${apiName}/ folder yet`, local: false }
          : runtime === 'containers'
            ? await containersOrLocal(impl)
            : { reason: await missingToolchain(impl), local: false };
      if (reason === null && api !== undefined) {
        targets.push({ impl, api, ...(local ? { runtime: 'local' as const } : {}) });
      } else {
        printSkip(impl.manifest.name, apiName, reason ?? '');
        skips.push({ impl, api: apiName, reason: reason ?? '' });
      }
    }
  }
  return { targets, skips };
}

/**
 * In containers: the implementation's image, or why not. A runtime variant the containers
 * runtime cannot run (impl.yaml `containers.unsupported`) is refused when RUNTIME=containers
 * was asked for; when the command chose containers itself it runs as a local process, said loudly.
 */
async function containersOrLocal(impl: Implementation): Promise<{ reason: string | null; local: boolean }> {
  const reason = imageUnavailable(impl);
  if (reason === null || impl.variant.isDefault || requestedRuntime() === 'containers') return { reason, local: false };
  const missing = await missingToolchain(impl);
  if (missing !== null) return { reason: `${reason}; locally: ${missing}`, local: false };
  console.log(
    yellow(
      `!! ${impl.manifest.name} runs as a local process beside containerized databases: ${reason.replace(/ \(run it with RUNTIME=local\)$/, '')} (RUNTIME=containers refuses it)`,
    ),
  );
  return { reason: null, local: true };
}

/** The runtime choice for a selection's pairs and their databases: FAIRBENCH_RUNTIME, else the selection's default. */
export function runtimeOptions(selection: Selection): ChooseProviderOptions {
  return { default: selection.runtime ?? 'auto' };
}

/** Where a selection's pairs and their databases run. */
export function runtimeOf(selection: Selection, opts: { quiet?: boolean } = {}): ProviderChoice {
  return chooseRuntime({ ...runtimeOptions(selection), ...(opts.quiet ? { quiet: true } : {}) });
}

export async function runConformance(selection: Selection): Promise<Verdict[]> {
  await checkPairs(selection.impls, selection.apis);
  const choice = runtimeOf(selection);
  const { targets, skips } = await selectTargets(selection, choice.provider.name);
  const fingerprintsOf = async (impl: Implementation): Promise<Fingerprints> => ({
    ...(await suiteFingerprints(impl.manifest.name)),
    providerReason: choice.reason,
  });
  const verdicts: Verdict[] = [];
  for (const { impl, api, reason } of skips) {
    verdicts.push(await record(skipped(impl, api, reason, await fingerprintsOf(impl), await implTreeHash(impl.dir))));
  }
  if (targets.length === 0) return verdicts;

  const databases = await startDatabases(
    targets.flatMap((t) => t.api.manifest.databases),
    runtimeOptions(selection),
  );
  const spec = await loadSpecValidators();
  for (const ofImpl of byImplementation(targets)) verdicts.push(...(await runImplementation(ofImpl, databases, spec, await fingerprintsOf(ofImpl[0]!.impl))));
  for (const db of databases.values()) await db.stop();
  return verdicts;
}

/**
 * Every API of one implementation on one process (launchTargets): each API's databases seeded, the
 * implementation started once, then each API's cases in turn — a JVM's start paid once, not once per
 * API. Where that launch fails, each pair launches on its own, so that each verdict says why.
 */
async function runImplementation(
  targets: readonly Target[],
  databases: ReadonlyMap<DatabaseKind, DatabaseServer>,
  spec: SpecValidators,
  fingerprints: Fingerprints,
): Promise<Verdict[]> {
  const name = targets[0]!.impl.manifest.name;
  const verdicts: Verdict[] = [];
  printBanner(`${name} × ${targets.map((t) => t.api.name).join(', ')}`);
  let launched: LaunchedTarget[];
  try {
    launched = await launchTargets(targets, databases);
  } catch (error) {
    console.log(`  ${name} did not start on every API at once (${error instanceof Error ? error.message.split('\n')[0] : String(error)}): each API on its own`);
    for (const target of targets) verdicts.push(await record(await runTarget(target, databases, spec, fingerprints)));
    return verdicts;
  }
  try {
    for (const [i, target] of targets.entries()) {
      printBanner(`${name} × ${target.api.name}`);
      const started = performance.now();
      const common = await commonFields(target.impl, target.api.name, databases, target.api, fingerprints);
      const stoppedBefore = !launched[i]!.running.process.alive();
      const verdict = stoppedBefore
        ? errorVerdict(common, `${name} stopped before ${target.api.name}'s cases (during an earlier API's): not tested`, started)
        : await casesVerdict(target, launched[i]!, common, spec, {}, started).catch((error: unknown) => errorVerdict(common, error, started));
      verdicts.push(await record(verdict));
    }
  } finally {
    for (const l of launched) await l.stop();
  }
  return verdicts;
}

/** The spec and the suite a verdict of `impl` depends on. */
export async function suiteFingerprints(impl: string): Promise<Fingerprints> {
  // The suite is its runner and each API's data set, conformance module and cases: a benchmark scenario's edit leaves verdicts current,
  // and so do other implementations' planted defects (apis/<api>/conformance/mutants/<other>.yaml).
  const apiParts = (await apiNames()).flatMap((n) => [`apis/${n}/api.yaml`, `apis/${n}/dataset`, `apis/${n}/conformance`]);
  return { specHash: await specHash(), suiteHash: await treeHash(['conformance', ...apiParts], onlyDefectsOf([impl])) };
}

export async function loadSpecValidators(): Promise<SpecValidators> {
  return { openapi: await OpenApiValidator.load(), graphqlSchema: await loadSpecSchema() };
}

export async function startDatabases(needed: readonly DatabaseKind[], choose: ChooseProviderOptions = {}): Promise<Map<DatabaseKind, DatabaseServer>> {
  const { provider } = chooseRuntime(choose);
  const kinds = [...new Set(needed)];
  printBanner(`starting ${kinds.join(', ')} (${provider.name} runtime)`);
  const servers = await Promise.all(
    kinds.map(async (kind) => {
      const started = performance.now();
      const server = await provider.start(kind); // the provider ties it to the process-wide cleanup
      console.log(`  ${kind}: ${server.engine.name} ${server.engine.version} ready in ${Math.round(performance.now() - started)} ms`);
      return server;
    }),
  );
  return new Map(servers.map((s) => [s.kind, s]));
}

/** Runs every case of one API against one implementation; the caller records the verdict. */
export async function runTarget(
  target: Target,
  databases: ReadonlyMap<DatabaseKind, DatabaseServer>,
  spec: SpecValidators,
  fingerprints: Fingerprints,
  options: RunOptions = {},
): Promise<Verdict> {
  const { impl, api } = target;
  printBanner(`${impl.manifest.name} × ${api.name}`);
  const started = performance.now();
  const common = await commonFields(impl, api.name, databases, api, fingerprints);
  let launched: LaunchedTarget | undefined;
  try {
    launched = await launchTarget(target, databases);
    return await casesVerdict(target, launched, common, spec, options, started);
  } catch (error) {
    return errorVerdict(common, error, started);
  } finally {
    await launched?.stop();
  }
}

type CommonFields = Awaited<ReturnType<typeof commonFields>>;

/** Every case (or options.only) of one API against its launched implementation. */
async function casesVerdict(
  target: Target,
  launched: LaunchedTarget,
  common: CommonFields,
  spec: SpecValidators,
  options: RunOptions,
  started: number,
): Promise<Verdict> {
  const { impl, api } = target;
  const onCase = options.onCase ?? printCase;
  const { prepared, running, seeded } = launched;
  const child = running.process;
  const ctx: SuiteContext = {
    api: api.name,
    baseUrl: running.baseUrl,
    ...spec,
    store: prepared.store,
    reset: () => seeded.reset(),
    jwtSecret: launched.jwtSecret,
    alive: () => child.alive(),
    ...(options.only ? { selects: (id: string) => options.only!.includes(id) } : {}),
  };
  // A suite runs when every case is wanted or one of its cases is (case ids begin with the suite's name).
  const wanted = (suite: string) => options.only === undefined || options.only.some((id) => id.startsWith(`${suite}/`));
  const results: CaseResult[] = [];
  const report = (batch: CaseResult[]) => {
    batch.forEach(onCase);
    results.push(...batch);
  };
  if (wanted('protocol')) report(await runProtocol(ctx, api.manifest.graphql));
  for (const suite of api.manifest.conformance.suites) if (wanted(suite)) report(await runSuite(ctx, api, prepared, suite));
  const failing = results.filter((r) => !r.passed).map((r) => r.id);
  return {
    ...common,
    // In a container the runtime is the image's, which may differ from the host's.
    ...(running.runtimeVersion ? { runtime: { name: impl.manifest.runtime.name, version: running.runtimeVersion } } : {}),
    ...(running.container ? { implImage: running.container.image } : {}),
    status: failing.length === 0 ? 'passed' : 'failed',
    dataset: launched.dataset,
    startupMs: Math.round(running.startupMs),
    durationMs: Math.round(performance.now() - started),
    passed: results.length - failing.length,
    failed: failing.length,
    total: results.length,
    failing,
    cases: results.map((r) => ({ ...r, ms: Math.round(r.ms * 10) / 10 })),
  };
}

function errorVerdict(common: CommonFields, error: unknown, started: number): Verdict {
  const reason = error instanceof Error ? error.message : String(error);
  console.log(`  ERROR ${reason}`);
  return { ...common, status: 'error', reason, durationMs: Math.round(performance.now() - started), passed: 0, failed: 0, total: 0, failing: [] };
}

/** One suite: its case file, and the fixture the API's module prepared for it. */
async function runSuite(ctx: SuiteContext, api: ConformanceApi, prepared: AnyPreparedApi, suite: SuiteName): Promise<CaseResult[]> {
  switch (suite) {
    case 'questions':
      return runQuestions(ctx, fixtureOf(prepared, suite, api.name), await loadCaseFile(api, 'operations'), await loadCaseFile(api, 'questions'));
    case 'scenarios':
      return runScenarios(ctx, fixtureOf(prepared, suite, api.name), await loadCaseFile(api, 'operations'), await loadCaseFile(api, 'scenarios'));
    case 'flows':
      return runFlows(ctx, fixtureOf(prepared, suite, api.name), await loadCaseFile(api, 'flows'));
    case 'bad-input':
      return runBadInput(ctx, (await loadCaseFile(api, 'bad-input')).cases);
  }
}

async function commonFields(
  impl: Implementation,
  api: string,
  databases: ReadonlyMap<DatabaseKind, DatabaseServer>,
  conformanceApi: ConformanceApi,
  fingerprints: Fingerprints,
) {
  const used = conformanceApi.manifest.databases.map((k) => databases.get(k)!);
  return {
    schemaVersion: 1 as const,
    implementation: impl.manifest.name,
    api,
    framework: { name: impl.manifest.framework.name, version: impl.manifest.framework.version },
    runtime: { name: impl.manifest.runtime.name, version: await runtimeVersion(impl) },
    provider: used[0]?.provider ?? 'local',
    databases: used.map((d) => ({ kind: d.kind, engine: d.engine.name, version: d.engine.version })),
    implTreeHash: await implTreeHash(impl.dir),
    ...fingerprints,
    ...(await sourceRevision()),
    harnessNode: process.version,
    machine: machine(),
    recordedAt: new Date().toISOString(),
  };
}

function machine() {
  return { cpu: os.cpus()[0]?.model ?? 'unknown', cores: os.availableParallelism(), memoryBytes: os.totalmem(), kernel: os.release(), platform: os.platform() };
}

function skipped(impl: Implementation, api: string, reason: string, fingerprints: Fingerprints, implHash: string): Verdict {
  return {
    schemaVersion: 1,
    implementation: impl.manifest.name,
    api,
    status: 'skipped',
    reason,
    framework: { name: impl.manifest.framework.name, version: impl.manifest.framework.version },
    implTreeHash: implHash,
    ...fingerprints,
    recordedAt: new Date().toISOString(),
    passed: 0,
    failed: 0,
    total: 0,
    failing: [],
  };
}

async function record(verdict: Verdict): Promise<Verdict> {
  // An interrupted run proves nothing: keep the verdict already on disk.
  if (shuttingDown()) throw new Error('interrupted');
  const file = await writeVerdict(verdict);
  console.log(`  verdict: ${verdict.status} ${verdict.passed}/${verdict.total} → ${file}`);
  return verdict;
}
