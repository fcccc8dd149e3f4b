// What an API's benchmark module (apis/<name>/bench/index.ts) gives the runner: how its
// scenario file expands to cases, what k6 environment a case gets, and what its
// database-alone baseline runs. The runner (bench/src/run.ts) does the rest for every
// API alike: gate, seeding (the API's dataset module), placement, restarts, sampling,
// repetitions, the result document.
import type { Databases, Seeded } from '@fairbench/harness/api/dataset.ts';
import type { BaselineOptions } from '../load/baseline/launch.ts';
import type { RunSettings, StartedLoad } from '../load/k6.ts';
import type { LoadModel, Tier } from '../record/result-document.ts';

/** The filters of make bench (PROTOCOL, CASES, MODEL), as given. */
export interface CaseSelection {
  readonly protocols?: readonly string[];
  readonly models?: readonly string[];
  /** Glob(s) or regular expression(s) on the case id, comma-separated. */
  readonly cases?: string;
  /** Glob(s) on native-tier case ids: only those of the kept points' native cases run (make test's smoke keeps one). */
  readonly native?: string;
  /** QUICK=1: a scenario may leave out its longest points (unless CASES names cases). */
  readonly quick?: boolean;
  /** false: no database-alone case (make cheats: a cheat is caught by its work, which the limit does not measure). */
  readonly limits?: boolean;
}

export interface PlannedCase {
  /** Stable across runs and implementations: <protocol>/<model>/<point>. */
  readonly id: string;
  /** rest | graphql, 'database' for the database-alone baseline (the limit), 'native' for a native client beside a driver baseline. */
  readonly protocol: string;
  /** The case's tier (bench/src/plan/tiers.ts): absent = from its protocol (database: driver, native: native, others: http). */
  readonly tier?: Tier;
  readonly model: LoadModel;
  /** The load point, shared by a benchmarked case and its baseline: <model>/<point>. */
  readonly point: string;
  /** What the result records and the report groups by. */
  readonly parameters: Record<string, number | string | boolean>;
  /** The request types in the order the case sends them (the result lists them so). */
  readonly requestTypes?: readonly string[];
  /**
   * The load ends in overload (a stress test): the server goes on working through requests
   * the generator abandoned, on the core the next repetition's server shares. The case loop
   * stops the implementation after each of its repetitions and starts it afresh before its
   * next, so every repetition is a freshly started implementation's first load, and the case
   * runs no warm-up iterations.
   */
  readonly freshServerEachRepetition?: boolean;
  /**
   * Its load cannot be cut into switched slices (one client's fixed sequence, as a paper's
   * protocol): where the run switches, its repetitions are still separate loads, in
   * alternating rounds (the API's api.yaml says which cases and why).
   */
  readonly separateLoads?: true;
  /**
   * Failed answers are part of what the case measures (an error rate, a time to failure, as the
   * paper's load and stress tests count them): server errors (5xx) do not make its repetitions
   * invalid (src/record/validity.ts).
   */
  readonly failuresMeasured?: true;
}

export interface Plan<C extends PlannedCase> {
  /** The selected cases in run order: each point's benchmarked cases, then its baseline. */
  readonly cases: readonly C[];
  /** The load models the selection used. */
  readonly models: readonly LoadModel[];
  /** The scenario file's text (hashed into the result). */
  readonly text: string;
}

export interface Prepared<C extends PlannedCase> {
  /** The k6 environment of one repetition of a benchmarked case (BASE_URL and SUMMARY_PATH added by the runner). */
  k6Env(c: C, settings: RunSettings): Record<string, string | number>;
  /** Starts the database-alone client for one repetition of a baseline case (either database-alone tier: the case's tier says which). */
  startBaseline(c: C, settings: RunSettings, opts: BaselineOptions): Promise<StartedLoad>;
  /**
   * Conditions the data must still meet after a repetition (e.g. a ledger that balances),
   * checked after every repetition of every case: the violated ones, one line each. A
   * repetition with any is recorded as invalid, the lines in its notes.
   */
  afterRepetition?(c: C): Promise<string[]>;
  /**
   * The cross-check generator's load for a closed-model case (CROSSCHECK=wrk): as many
   * connections as the case has VUs, the requests made by a wrk Lua script. Undefined
   * for a case it cannot send.
   */
  wrkLoad?(c: C, settings: RunSettings): WrkLoad | undefined;
}

/** A case's load for wrk: connections, and the Lua script (text) whose request() builds each request. */
export interface WrkLoad {
  readonly connections: number;
  readonly script: string;
}

export type { BaselineOptions } from '../load/baseline/launch.ts';

export interface BenchModule<C extends PlannedCase = PlannedCase, Data = unknown> {
  /**
   * The tiers its plan measures at every point, e.g. ['native', 'driver', 'http']: the
   * database alone through a native client, through the implementation language's driver,
   * and the implementation over HTTP. The report sets them side by side per point.
   */
  readonly tiers: readonly Tier[];
  /** The cases of the scenario file (apis/<name>/<bench.scenario>) that the selection keeps. */
  plan(selection: CaseSelection, scenarioFile: string): Promise<Plan<C>>;
  /** Binds the cases to the seeded paper-scale data set (id ranges, credentials). */
  prepare(seeded: Seeded<Data>, databases: Databases): Prepared<C> | Promise<Prepared<C>>;
  /** An upper bound of one repetition's seconds: k6 or the baseline is stopped after it. */
  limitSeconds(c: C, settings: RunSettings): number;
  /** The planned seconds of one repetition, for the ETA before the first has run. */
  plannedSeconds(c: C, settings: RunSettings): number;
}
