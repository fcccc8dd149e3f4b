// The shape of one run's result document, as bench/results.schema.json defines it.
// The report reads only documents that validated against that schema, so these types
// mirror it (optional where the schema does not require a property).
import type { WorkVerdict } from './work-check.ts';

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
  /** Quartiles, for the box plots (absent in older results). */
  p25?: number;
  p75?: number;
}

/** Apdex from counts: satisfied within T, tolerating within F, the rest (slower or failed) frustrated. */
export interface Apdex {
  tMs: number;
  fMs: number;
  requests: number;
  satisfied: number;
  tolerating: number;
  /** (satisfied + tolerating / 2) / requests, rounded to 3 decimals. */
  score: number;
}

/** Response time over time: the requests sent in each window after the measured window began. */
export interface OverTime {
  windowSeconds: number;
  points: { fromSeconds: number; requests: number; errorRate: number; latencyMs: LatencySummary }[];
}

/** A stress test's end: when its stop condition was met (or that it survived to the cap), and the recovery after. */
export interface StressOutcome {
  /** Seconds from the start of the ramp to the end of the first window that met a stop condition; absent when none did. */
  failedAfterSeconds?: number;
  /** The condition met, with the window's figure; or that the load survived to the cap. */
  reason: string;
  capSeconds: number;
  recovery: { recovered: boolean; withinSeconds: number; seconds?: number };
}

/** [seconds since the window began, CPU%, RSS bytes] */
export type UsageSample = [number, number, number];

export interface Usage {
  cpuPercentPeak: number;
  cpuPercentMean: number;
  rssBytesPeak: number;
  rssBytesMean?: number;
  /** CPU seconds the tree used in the window (utime + stime of every process in it). */
  cpuSeconds?: number;
  sampleHz?: number;
  samples?: UsageSample[];
}

/** µs of CPU per completed request, by process tree (absent: not sampled, or no request). */
export interface CpuPerRequest {
  server?: number;
  database?: number;
  generator?: number;
}

/** k6 against a no-op server at the start of the run (bench/src/execute/ceiling.ts). */
export interface GeneratorCeiling {
  /** The no-op server, e.g. "nginx 1.22.1". */
  target: string;
  vus: number;
  durationSeconds: number;
  requests: number;
  /** The most requests per second k6 sent on this machine. */
  rate: number;
  latencyMs: LatencySummary;
  /** k6's CPU per request (µs). */
  cpuPerRequestUs?: number;
  /** The no-op server's CPU per request (µs): k6's own cost only if this is small. */
  targetCpuPerRequestUs?: number;
  /** k6's mean CPU (100 = one core). */
  cpuPercentMean?: number;
  /** wrk against the same target, as many connections as k6 had VUs, on the same cores. */
  crossCheck?: CaseCrossCheck;
  /** The rate in each equal part of the window (the control measurement repeated within the run). */
  windowRates?: number[];
  /** Their coefficient of variation (sample SD / mean): the machine's short-term noise. */
  cv?: number;
  /** What k6 could send with its cores fully busy: their number × 10⁶ / cpuPerRequestUs. Above rate when the machine, not k6, held it back. */
  cpuBoundRate?: number;
  /** k6's floor F on this machine (bench/k6/floor.js: a plain http.get against the same target), measured just before. */
  floor?: GeneratorFloor;
  /** The control's CPU per request over F: the median of the rounds' ratios. */
  overFloor?: number;
  /** Each round: the floor, then the control right after it (bench/src/execute/ceiling.ts CEILING_LOAD.rounds). */
  rounds?: { floorUs: number; controlUs: number; overFloor: number }[];
}

/** k6/floor.js against the no-op target: the least CPU per request k6 spends here. */
export interface GeneratorFloor {
  script: string;
  /** Requests in the window (estimated from the whole load's: the floor carries no phase tag). */
  requests: number;
  rate: number;
  /** F: k6's CPU per request (µs). */
  cpuPerRequestUs: number;
  cpuPercentMean?: number;
}

/** The machine before the cases started (bench/src/execute/noise.ts). */
export interface MachineNoise {
  /** 1, 5 and 15 minutes. */
  loadAverage: number[];
  /** cpu0's frequency governor; null where the kernel exposes none (e.g. a VM). */
  governor: string | null;
  cpuMHz?: number;
  /** Other processes that used at least HEAVY_CPU_PERCENT of a core over one second. */
  busyProcesses: { pid: number; command: string; cpuPercent: number }[];
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
  apdex?: Apdex;
}

/** One second of a repetition's load, from its start (warm-up included): the requests that ended in it. */
export interface TimelinePoint {
  second: number;
  requests: number;
  p50Ms: number;
  p95Ms: number;
}

export interface RecordedTopology {
  file: string;
  controllerAddress: string;
  hosts: {
    name: string;
    roles: ('database' | 'implementation' | 'generator')[];
    address: string;
    via: 'netns' | 'ssh';
    cores: number[] | null;
    machine: { hostname: string; cpuModel: string; cores: number; memoryBytes: number; kernel: string; addresses: string[] };
  }[];
}

/** One of several k6 instances of a repetition: its generator host, execution segment and requests in the measured window. */
export interface GeneratorInstance {
  readonly host: string;
  readonly segment: string;
  readonly requests: number;
  /** How long after the first instance's this one's measured window opened (the resume's skew). */
  readonly windowOffsetMs: number;
}

export interface Repetition {
  index: number;
  startedAt: string;
  /** Seconds waited before the load for the case's servers and the database to be idle (bench/src/execute/settle.ts). */
  settleSeconds?: number;
  durationSeconds: number;
  /** This repetition's warm-up when it was not options.warmupSeconds: a served case's first load (options.firstWarmupSeconds). */
  warmupSeconds?: number;
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
  /** Latency per second from the start of the load, warm-up included (the first seconds: a JIT's warm-up). */
  timeline?: TimelinePoint[];
  apdex?: Apdex;
  overTime?: OverTime;
  stress?: StressOutcome;
  /** The k6 instances whose exact merge this repetition is (a topology with several generators). */
  generatorInstances?: GeneratorInstance[];
  order?: number;
  /** Switched slices (options.switchedSlices): this repetition's place in its load (1-based); startedAt is then its window's start, after the guard. */
  slice?: number;
  /** Process pairs (options.processPairs): which start of the implementations measured it (1-based); the comparison's unit. */
  process?: number;
  generatorBound?: boolean;
  /** CPU time per completed request (µs) of each sampled process tree: cpuSeconds / requests. */
  cpuPerRequestUs?: CpuPerRequest;
  /** The repetition's throughput over the run's generator ceiling (bench/src/execute/ceiling.ts). */
  ceilingShare?: number;
  /** The repetition its case's failure happened in: only what was measured before then. */
  partial?: true;
  /** The data broke the API's conditions after this repetition (reasons in notes). */
  invalid?: true;
  /** Proof of work: the database's counters over the window against the answers and the API's work model. */
  work?: RepetitionWork;
  notes?: string[];
}

/** A repetition's proof of work (results.schema.json $defs/work): its window's, or its switched load's. */
export interface RepetitionWork extends WorkVerdict {
  readonly window: 'repetition' | 'load';
}

/** Why a case did not complete (bench/results.schema.json $defs/failure). */
export type FailureKind = 'time-limit' | 'empty-window' | 'generator' | 'baseline' | 'implementation' | 'database' | 'invalid' | 'missing-work';

export interface CaseFailure {
  kind: FailureKind;
  /** One line. */
  reason: string;
  /** The repetition it happened in; absent when it happened before the first began. */
  repetition?: number;
  /** The warm-up iteration it happened in (before the repetitions; bench/src/plan/warm-up.ts). */
  warmupIteration?: number;
  /** The last lines of the failing process's log. */
  detail?: string;
}

export interface BenchCase {
  id: string;
  protocol: string;
  /** Where the case's load goes through (bench/src/plan/tiers.ts); absent in older documents: derived from the protocol. */
  tier?: Tier;
  model: LoadModel;
  parameters: Record<string, number | string | boolean>;
  /** The valid ones (every figure and verdict uses these alone): at least one unless the case failed before measuring anything. */
  repetitions: Repetition[];
  /** Repetitions set aside, each `invalid` with its notes saying why (src/record/validity.ts). */
  invalidRepetitions?: Repetition[];
  failure?: CaseFailure;
  /** The cross-check generator (wrk) once after the repetitions, on the same server (CROSSCHECK=wrk, closed model). */
  crossCheck?: CaseCrossCheck;
  /** A bare request's cost to k6 at this case's rate and VUs, measured once after the repetitions (bench/src/execute/rate-floor.ts). */
  floorAtRate?: CaseFloorAtRate;
  /** The unrecorded repetitions before `repetitions` (options.warmupIterations): none of the statistics use them. */
  warmup?: CaseWarmup;
}

export interface CaseWarmup {
  /** Each warm-up iteration as measured, in order (index 1, 2, …); the first is the freshly started implementation's first load. */
  iterations: Repetition[];
  /** The last iteration's rate rose less than options.warmupIterations.steadyWithinPercent: false when the warm-up hit its maximum still rising (or failed). */
  steady: boolean;
}

/**
 * k6/floor.js (a plain http.get) against the no-op target with the case's VUs, held by k6's
 * --rps to the case's rate: k6's CPU per request at the case's own pace, which the run's F
 * (k6 at full speed) is not.
 */
export interface CaseFloorAtRate {
  vus: number;
  /** The rate k6 was held to: the median of the repetitions' rates. */
  targetRate: number;
  /** The rate it sent in the window. */
  rate: number;
  requests: number;
  durationSeconds: number;
  /** k6's CPU per request (µs). */
  cpuPerRequestUs: number;
  /** The repetitions' median k6 µs per request over cpuPerRequestUs: what the case's script costs over a bare request at its pace. */
  overFloor?: number;
}

export interface CaseCrossCheck {
  name: string;
  connections: number;
  durationSeconds: number;
  requests: number;
  errors: number;
  /** Successful responses per second. */
  rate: number;
  cpuPerRequestUs: number;
  cpuPercentMean: number;
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
    /** A served case's first load's warm-up (its first warm-up iteration, or else its first repetition), when longer than warmupSeconds. */
    firstWarmupSeconds?: number;
    /** Unrecorded repetitions before a served case's recorded ones until the rate is steady (bench/src/plan/warm-up.ts); absent: none. */
    warmupIterations?: { max: number; steadyWithinPercent: number };
    /** The served cases' repetitions were switched slices of one load per process pair (bench/k6/measure.js target()), `pairs` in each; absent: a load each. */
    switchedSlices?: { pairs: number; sliceSeconds: number; guardSeconds: number };
    /** Each implementation of the comparison had its own database on the same server, seeded with the same rows (a switched load that writes); absent: one database for all. */
    ownDatabases?: true;
    /** Each served case started its implementations this many times, each start warmed and measured in turn (repetitions' `process`); absent: once. */
    processPairs?: number;
    /** No database-alone case was run (LIMITS=0); absent: each kept point's came along. */
    limits?: false;
    quick: boolean;
    /** The make bench profile the options came from (bench/profiles.yaml). */
    profile?: string;
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
    /** An A/A calibration run: which copy of the implementation this document is (bench/src/record/copies.ts). */
    copy?: number;
    /** The runtime variant measured (impl.yaml; harness/src/impl/variants.ts): `name` is <folder>@<variant> unless it is the default. */
    variant?: { name: string; default: boolean };
    /** The folder at a git revision (harness/src/impl/revisions.ts): `name` is then <folder>:<commit's first 10 hex digits>. */
    revision?: { revision: string; commit: string };
    /** A planted cheat (harness/src/impl/planted.ts): a copy that skips work, measured to show proof of work catches it. */
    planted?: { cheat: string; api: string };
    /** Its framework package at another version (harness/src/impl/packages.ts): `name` is then <folder>~<version>. */
    package?: { name: string; version: string };
    language?: string;
    framework: NameVersion;
    /** The runtime actually run: its version as the binary the implementation started with reports it. */
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
    noise?: MachineNoise;
    /** A run across several hosts (bench/src/execute/topology/): each host's roles, access and probed machine. */
    topology?: RecordedTopology;
  };
  /** checkEvery: 1 in how many of each VU's measured answers the scripts check in full (bench/k6/measure.js; absent in older documents: every one). */
  generator: { name: 'k6'; version: string; checkEvery?: number; env?: Record<string, string>; ceiling?: GeneratorCeiling };
  /** The tier the served cases are measured against, as the API's manifest chose it (absent: native where it ran). */
  limit?: { tier: 'native' | 'driver'; why?: string };
  cases: BenchCase[];
}

/** The options as every result document records them: what the run resolved, stated once (plan/run-plan.ts planRun). */
export type RecordedOptions = BenchResult['options'];

/** The protocol of the database-alone baseline cases: the limit each served case is compared with. */
export const BASELINE_PROTOCOL = 'database';

/**
 * The tiers of the limit: the database alone through a native client that is never the
 * bottleneck (sysbench, pgbench, go-tpc, a Go driver), the database alone through the
 * implementation language's driver with the same pool, and the implementation over HTTP.
 */
export type Tier = 'native' | 'driver' | 'http';
export const TIERS: readonly Tier[] = ['native', 'driver', 'http'];

/** The protocol of a native-tier case in an API whose `database` case is its driver tier. */
export const NATIVE_PROTOCOL = 'native';

/** Whether a case is one of the database-alone tiers (no implementation runs it). */
export const isDatabaseAlone = (protocol: string): boolean => protocol === BASELINE_PROTOCOL || protocol === NATIVE_PROTOCOL;

/** A case's tier: as recorded, or (older documents) from its protocol — `database` was the driver. */
export const tierOf = (c: { protocol: string; tier?: Tier | undefined }): Tier =>
  c.tier ?? (c.protocol === NATIVE_PROTOCOL ? 'native' : c.protocol === BASELINE_PROTOCOL ? 'driver' : 'http');

/** A native client above this share of its core (mean) may be the limit itself: flagged generator-bound. */
export const NATIVE_CLIENT_BOUND_CPU_PERCENT = 50;

/** Above this share of the generator's ceiling a repetition's rate may be shaped by k6: noted, and warned of in the report. */
export const CEILING_SHARE_WARNING = 0.5;
