// What every result document of a run says before its cases: the run, its options, the
// implementation (its runtime's version, read once, or as its server reported it), the
// gate it passed, the source, the data set, the database, the machine and the generator;
// and the run's recording: its documents written before the first case and after every one.
import { sourceRevision, specHash } from '@fairbench/harness/fingerprint.ts';
import type { Implementation } from '@fairbench/harness/impl/manifest.ts';
import type { DatabaseServer } from '@fairbench/harness/provision/index.ts';
import { runtimeVersion } from '@fairbench/harness/runtime-version.ts';
import type { Seeded } from '@fairbench/harness/api/dataset.ts';
import { onCleanup } from '@fairbench/harness/cleanup.ts';
import { repoRoot } from '@fairbench/harness/paths.ts';
import { relative } from 'node:path';
import type { GateRecord } from './gate.ts';
import { recordedTopology, type Topology } from './topology/topology.ts';
import { CHECK_EVERY, GENERATOR_ENV } from '../load/k6.ts';
import type { Placement } from '../load/placement.ts';
import { documentImplementation } from '../record/document-impl.ts';
import { machineFacts } from '../record/result.ts';
import type { BenchResult, GeneratorCeiling, MachineNoise } from '../record/result-document.ts';
import type { ResumeState } from '../record/resume.ts';
import { RunRecorder, type DocumentHead } from '../record/run-record.ts';
import type { RunDatabases } from './parties.ts';
import type { PreparedRun } from './prepared-run.ts';

export interface HeadFacts {
  readonly runId: string;
  readonly api: string;
  readonly impls: readonly Implementation[];
  readonly options: BenchResult['options'];
  readonly gates: ReadonlyMap<string, GateRecord>;
  readonly resumed: ResumeState | undefined;
  readonly sessionStarted: Date;
  readonly seeded: Seeded<unknown>;
  readonly db: DatabaseServer;
  readonly poolSize: number;
  readonly placement: Placement;
  readonly topology: Topology | undefined;
  readonly noise: MachineNoise;
  readonly ceiling: GeneratorCeiling | undefined;
  readonly generatorVersion: string;
  readonly limit: BenchResult['limit'];
  /** Each implementation's runtime version as its server reported it (filled as the servers start). */
  readonly runtimes: Map<string, string>;
}

/** The source's revision and spec hash, read now; then each implementation's head, when its document is written. */
export async function documentHeads(f: HeadFacts): Promise<(name: string) => Promise<DocumentHead>> {
  const revision = await sourceRevision();
  const spec = await specHash();
  return async (name) => {
    const impl = f.impls.find((i) => i.manifest.name === name)!;
    if (!f.runtimes.has(name)) f.runtimes.set(name, await runtimeVersion(impl));
    return {
      schemaVersion: 1,
      runId: f.runId,
      api: f.api,
      startedAt: f.resumed?.startedAt ?? f.sessionStarted.toISOString(),
      ...(f.resumed ? { resumedAt: [...f.resumed.resumedAt, f.sessionStarted.toISOString()] } : {}),
      options: f.options,
      implementation: documentImplementation(impl, {
        runtimeVersion: f.runtimes.get(name)!,
        implTreeHash: f.gates.get(name)!.implTreeHash,
        poolSize: f.poolSize,
      }),
      gate: f.gates.get(name)!,
      source: { commit: revision.commit, dirty: revision.dirty, specHash: spec },
      dataset: f.seeded.info,
      database: { kind: f.db.kind, engine: f.db.engine.name, version: f.db.engine.version },
      provider: f.db.provider,
      machine: { ...machineFacts(f.placement), noise: f.noise, ...(f.topology ? { topology: recordedTopology(f.topology) } : {}) },
      generator: { name: 'k6', version: f.generatorVersion, checkEvery: CHECK_EVERY, env: { ...GENERATOR_ENV }, ...(f.ceiling ? { ceiling: f.ceiling } : {}) },
      ...(f.limit ? { limit: f.limit } : {}),
    };
  };
}

/** What the run measured before its cases, for the documents' head. */
export interface BeforeCases {
  readonly seeded: Seeded<unknown>;
  readonly databases: RunDatabases;
  readonly poolSize: number;
  readonly noise: MachineNoise;
  readonly ceiling: GeneratorCeiling | undefined;
  readonly generatorVersion: string;
  /** Each implementation's runtime version as its server reported it (filled as the servers start). */
  readonly runtimes: Map<string, string>;
}

/**
 * The run's documents, written once now (so that even a run killed in its first case can be
 * resumed) and then after every case; until `done()`, an interruption says how to continue.
 */
export async function startRecording(run: PreparedRun, b: BeforeCases): Promise<{ recorder: RunRecorder; done(): void }> {
  const { runId, opts, impls, options, gates, resumed, sessionStarted, cases, where, api } = run;
  const { seeded, poolSize, noise, ceiling, generatorVersion, runtimes } = b;
  const head = await documentHeads({
    runId,
    api: opts.api,
    impls,
    options,
    gates,
    resumed,
    sessionStarted,
    seeded,
    db: b.databases.db,
    poolSize,
    placement: b.databases.recordedPlacement,
    topology: where.topology,
    noise,
    ceiling,
    generatorVersion,
    limit: api.manifest.bench.limit,
    runtimes,
  });
  const planned = cases.map((c) => c.id);
  const prior = resumed ? { prior: resumed.cases, priorWallSeconds: resumed.wallSeconds } : {};
  const recorder = new RunRecorder({ impls: impls.map((i) => i.manifest.name), planned, head, sessionStarted, ...prior });
  const files = await recorder.write();
  const done = onCleanup('bench: how to continue', async () => {
    const where = files.map((f) => relative(repoRoot, f)).join(', ');
    console.error(`bench: run ${runId} stopped with ${recorder.recordedCases} of ${cases.length} cases recorded in ${where} (complete: false)`);
    console.error(`bench: to continue it, give the same options and RESUME=${runId}`);
  });
  return { recorder, done };
}
