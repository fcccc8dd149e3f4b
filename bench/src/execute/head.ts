// What every result document of a run says before its cases: the run, its options, the
// implementation (its runtime's version, read once, or as its server reported it), the
// gate it passed, the source, the data set, the database, the machine and the generator.
import { sourceRevision, specHash } from '@fairbench/harness/fingerprint.ts';
import type { Implementation } from '@fairbench/harness/impl/manifest.ts';
import type { DatabaseServer } from '@fairbench/harness/provision/index.ts';
import { runtimeVersion } from '@fairbench/harness/runtime-version.ts';
import type { Seeded } from '@fairbench/harness/api/dataset.ts';
import type { GateRecord } from './gate.ts';
import { recordedTopology, type Topology } from './topology/topology.ts';
import type { Placement } from '../load/placement.ts';
import { documentImplementation } from '../record/document-impl.ts';
import { machineFacts } from '../record/result.ts';
import type { BenchResult, GeneratorCeiling, MachineNoise } from '../record/result-document.ts';
import type { ResumeState } from '../record/resume.ts';
import type { DocumentHead } from '../record/run-record.ts';

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
      implementation: documentImplementation(impl, { runtimeVersion: f.runtimes.get(name)!, implTreeHash: f.gates.get(name)!.implTreeHash, poolSize: f.poolSize }),
      gate: f.gates.get(name)!,
      source: { commit: revision.commit, dirty: revision.dirty, specHash: spec },
      dataset: f.seeded.info,
      database: { kind: f.db.kind, engine: f.db.engine.name, version: f.db.engine.version },
      provider: f.db.provider,
      machine: { ...machineFacts(f.placement), noise: f.noise, ...(f.topology ? { topology: recordedTopology(f.topology) } : {}) },
      generator: { name: 'k6', version: f.generatorVersion, ...(f.ceiling ? { ceiling: f.ceiling } : {}) },
      ...(f.limit ? { limit: f.limit } : {}),
    };
  };
}
