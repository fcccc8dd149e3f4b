// The shape of one run's result document, as bench/results.schema.json defines it.
// The report reads only documents that validated against that schema, so these types
// mirror it (optional where the schema does not require a property).

export interface NameVersion {
  name: string;
  version: string;
}

export interface LatencySummary {
  min: number;
  mean: number;
  median: number;
  p90: number;
  p95: number;
  p99: number;
  max: number;
  /** The standard deviation of the requests' latencies (client side only; absent in older results). */
  sd?: number;
}

/** [seconds since the window began, CPU%, RSS bytes] */
export type UsageSample = [number, number, number];

export interface Usage {
  cpuPercentPeak: number;
  cpuPercentMean: number;
  rssBytesPeak: number;
  rssBytesMean?: number;
  sampleHz?: number;
  samples?: UsageSample[];
}

/** How a case's load arrives (bench/results.schema.json $defs/model). */
export type LoadModel = 'closed' | 'open' | 'arrivals' | 'sequential';

/** One request type (operation) within a repetition's window. */
export interface RequestTypeResult {
  requests: number;
  errors: number;
  throughput?: number;
  latencyMs: LatencySummary;
  serverMs?: LatencySummary;
  partsMs?: Record<string, LatencySummary>;
}

export interface Repetition {
  index: number;
  startedAt: string;
  durationSeconds: number;
  requests: number;
  errors: Record<string, number>;
  throughput: number;
  latencyMs: LatencySummary;
  droppedIterations?: number;
  server?: Usage;
  database?: Usage;
  generator?: Usage;
  serverMs?: LatencySummary;
  requestTypes?: Record<string, RequestTypeResult>;
  order?: number;
  generatorBound?: boolean;
  /** The repetition its case's failure happened in: only what was measured before then. */
  partial?: true;
  /** The data broke the API's conditions after this repetition (reasons in notes). */
  invalid?: true;
  notes?: string[];
}

/** Why a case did not complete (bench/results.schema.json $defs/failure). */
export type FailureKind = 'time-limit' | 'generator' | 'baseline' | 'implementation' | 'database';

export interface CaseFailure {
  kind: FailureKind;
  /** One line. */
  reason: string;
  /** The repetition it happened in; absent when it happened before the first began. */
  repetition?: number;
  /** The last lines of the failing process's log. */
  detail?: string;
}

export interface BenchCase {
  id: string;
  protocol: string;
  model: LoadModel;
  parameters: Record<string, number | string | boolean>;
  /** At least one unless the case failed before measuring anything. */
  repetitions: Repetition[];
  failure?: CaseFailure;
}

export interface BenchResult {
  schemaVersion: 1;
  runId: string;
  api: string;
  startedAt: string;
  finishedAt: string;
  wallSeconds?: number;
  /** false while the run goes on, or when it was stopped before every planned case was recorded; absent = written only at the end (older documents). */
  complete?: boolean;
  plannedCases?: number;
  resumedAt?: string[];
  options: {
    repeat: number;
    durationSeconds: number;
    warmupSeconds: number;
    quick: boolean;
    protocols: string[];
    cases: string | null;
    models: LoadModel[];
    implementations?: string[];
    restartBetweenCases?: boolean;
    scenarioFile?: string;
    scenarioHash?: string;
    seed?: number;
  };
  implementation: {
    name: string;
    /** An A/A calibration run: which copy of the implementation this document is (bench/src/copies.ts). */
    copy?: number;
    language?: string;
    framework: NameVersion;
    runtime: NameVersion;
    implTreeHash: string;
    poolSize?: number;
    tuning?: string[];
  };
  gate: { status: 'passed'; specHash: string; suiteHash: string; implTreeHash: string; reused: boolean; recordedAt?: string };
  source: { commit: string | null; dirty: boolean; specHash: string };
  dataset: { name: string; seed: number; scale: object; fingerprint: string; rows?: object; loadMs?: number };
  database: { kind: string; engine: string; version: string };
  provider: 'local' | 'containers';
  machine: {
    hostname?: string;
    cpuModel: string;
    cores: number;
    kernel: string;
    memoryBytes: number;
    harnessNode?: string;
    placement: { implementation: number[] | null; generator: number[] | null; database: number[] | null };
  };
  generator: { name: 'k6'; version: string };
  cases: BenchCase[];
}

/** The protocol of the database-alone baseline cases. */
export const BASELINE_PROTOCOL = 'database';
