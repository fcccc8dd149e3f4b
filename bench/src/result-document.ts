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
  /** The data broke the API's conditions after this repetition (reasons in notes). */
  invalid?: true;
  notes?: string[];
}

export interface BenchCase {
  id: string;
  protocol: string;
  model: LoadModel;
  parameters: Record<string, number | string | boolean>;
  repetitions: Repetition[];
}

export interface BenchResult {
  schemaVersion: 1;
  runId: string;
  api: string;
  startedAt: string;
  finishedAt: string;
  wallSeconds?: number;
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
  };
  implementation: {
    name: string;
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
