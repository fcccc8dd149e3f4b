// What the runner needs from each API's benchmark (bench/src/apis/<api>/): how its
// scenario file expands to cases, how it seeds, what k6 environment a case gets, and
// what its database-alone baseline runs. The runner (bench/src/run.ts) does the rest
// for every API alike: gate, placement, restarts, sampling, repetitions, the document.
import type { DatabaseKind, DatabaseServer } from '@fairbench/harness/provision/types.ts';
import type { RunSettings, StartedLoad } from '../k6.ts';
import type { BenchResult, LoadModel } from '../result-document.ts';

/** The filters of make bench (PROTOCOL, CASES, MODEL), as given. */
export interface CaseSelection {
  readonly protocols?: readonly string[];
  readonly models?: readonly string[];
  /** Glob(s) or regular expression(s) on the case id, comma-separated. */
  readonly cases?: string;
  /** QUICK=1: a scenario may leave out its longest points (unless CASES names cases). */
  readonly quick?: boolean;
}

export interface PlannedCase {
  /** Stable across runs and implementations: <protocol>/<model>/<point>. */
  readonly id: string;
  /** rest | graphql, or 'database' for the database-alone baseline. */
  readonly protocol: string;
  readonly model: LoadModel;
  /** What the result records and the report groups by. */
  readonly parameters: Record<string, number | string | boolean>;
  /** The request types in the order the case sends them (the result lists them so). */
  readonly requestTypes?: readonly string[];
}

export interface Plan<C extends PlannedCase> {
  /** The selected cases in run order: each point's benchmarked cases, then its baseline. */
  readonly cases: readonly C[];
  /** The load models the selection used (options.models). */
  readonly models: readonly LoadModel[];
  /** The scenario file (absolute) and its text (hashed into the result). */
  readonly file: string;
  readonly text: string;
  /** The k6 script, relative to bench/. */
  readonly script: string;
}

export interface Prepared<C extends PlannedCase> {
  readonly dataset: BenchResult['dataset'];
  /** Restores the seeded data before a repetition, for APIs whose flows write; absent = nothing to restore. */
  readonly reset?: () => Promise<void>;
  /** The k6 environment of one repetition of a benchmarked case (BASE_URL added by the caller). */
  k6Env(c: C, settings: RunSettings): Record<string, string | number>;
  /** Starts the database-alone client for one repetition of a baseline case. */
  startBaseline(c: C, settings: RunSettings, opts: BaselineOptions): Promise<StartedLoad>;
}

export interface BaselineOptions {
  readonly cores: readonly number[] | null;
  readonly workDir: string;
  readonly poolSize: number;
  readonly limitSeconds: number;
}

export interface BenchApi<C extends PlannedCase = PlannedCase> {
  readonly name: string;
  /** The database every case of this API reads (the implementation gets its URL). */
  readonly database: DatabaseKind;
  plan(selection: CaseSelection): Promise<Plan<C>>;
  /** Seeds the paper's data set into a fresh database. */
  prepare(db: DatabaseServer): Promise<Prepared<C>>;
  /** An upper bound of one repetition's seconds: k6 or the baseline is stopped after it. */
  limitSeconds(c: C, settings: RunSettings): number;
  /** The planned seconds of one repetition, for the ETA before the first has run. */
  plannedSeconds(c: C, settings: RunSettings): number;
}
