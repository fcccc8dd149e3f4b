// What the case loop is given: the run's recorded options (the same object every result
// document records, so the loop and the report read one thing), and everything it starts —
// servers, loads, the database-alone client, resets, probes — as dependencies, so that tests
// can run the loop on small fake servers without a database.
import type { ManagedProcess } from '@fairbench/harness/process.ts';
import type { WorkReader } from '@fairbench/harness/work/index.ts';
import type { PlannedCase } from '../../plan/api-module.ts';
import type { StartedLoad } from '../../load/k6.ts';
import type { BenchCase, CaseCrossCheck, CaseFailure, CaseFloorAtRate, CaseWarmup, RecordedOptions, Repetition } from '../../record/result-document.ts';
import type { WorkModel } from '../../record/work-check.ts';
import type { Settled } from '../settle.ts';
import type { CaseLoopEvents } from './events.ts';

/** A started implementation, as the loop needs it. */
export interface LoopServer {
  readonly baseUrl: string;
  readonly process: ManagedProcess;
  stop(): Promise<void>;
}

/** The options the loop reads: how many repetitions, the warm-ups, whether a comparison switches slices, how many process pairs. */
export type LoopOptions = Pick<RecordedOptions, 'repeat' | 'warmupSeconds' | 'firstWarmupSeconds' | 'warmupIterations' | 'switchedSlices' | 'processPairs'>;

export interface CaseLoopDeps<C extends PlannedCase> {
  /** Implementation names, in the order given. */
  readonly impls: readonly string[];
  readonly options: LoopOptions;
  /** Where the loop tells what it does (events.ts; progress.ts listens); absent: told to no one. */
  readonly events?: CaseLoopEvents;
  /** Case number of the first case (1 unless a resumed run skips the finished ones). */
  readonly firstStep?: number;
  /** One load's time limit; `first`: a served case's first load (its longer warm-up). */
  limitSeconds(c: C, first: boolean): number;
  startServer(impl: string): Promise<LoopServer>;
  /** Starts k6 for one repetition (or warm-up iteration) of a benchmarked case against `server`; `first`: the server's first load since it started. */
  startLoad(c: C, server: LoopServer, limitSeconds: number, first: boolean): StartedLoad | Promise<StartedLoad>;
  /**
   * Starts one switched load (options.switchedSlices; bench/k6/measure.js target()): slice i
   * of it goes to servers[order[i]] (order: an index per slice). Needed where the options
   * switch slices.
   */
  /** `first`: the load is freshly started implementations' first (no warm-up iterations before it): it warms up for the first load's longer warm-up. */
  startSwitched?(c: C, servers: readonly LoopServer[], order: string, first: boolean): StartedLoad | Promise<StartedLoad>;
  /** Starts the database-alone client for one repetition of a baseline case. */
  startBaseline(c: C, limitSeconds: number): Promise<StartedLoad>;
  /** Restores the seeded data before a load: implementation `impl`'s where each has its own, else all. */
  reset?(impl?: string): Promise<unknown>;
  /** The API's conditions on the data after a load (e.g. TPC-C's consistency), of `impl`'s data where each has its own, else of all: each violation, described. */
  afterRepetition?(c: C, impl?: string): Promise<readonly string[]>;
  /** Why the database does not answer, or undefined when it does. */
  databaseDown(): Promise<string | undefined>;
  /**
   * Proof of work (work.ts): the API's work model, whether every implementation works on the
   * run's one database (`shared`) or each on its own, and a reader of `impl`'s (absent: the
   * run's, which the database-alone client uses). Absent: no work is checked.
   */
  readonly work?: {
    readonly model: WorkModel;
    readonly shared: boolean;
    open(impl?: string): Promise<WorkReader>;
    /** How often the counters are read through a load (default: every second; tests' loads are shorter). */
    readonly everyMs?: number;
  };
  /** The database server's pid, to sample it. */
  readonly databasePid?: number | undefined;
  /** Waits until these process trees are idle (bench/src/execute/settle.ts); absent: repetitions start at once. */
  settle?(roots: readonly number[]): Promise<Settled>;
  /** The cross-check generator once after a case's repetitions, against the same running server; undefined when the case has none. */
  crossCheck?(c: C, server: LoopServer): Promise<CaseCrossCheck | undefined>;
  /** A bare request's cost to k6 at the rate of an implementation's repetitions (rate-floor.ts), once after the case's servers stopped, printed under `label`; undefined when the case has none. */
  floorAtRate?(c: C, repetitions: readonly Repetition[], label: string): Promise<CaseFloorAtRate | undefined>;
  /** The generator's ceiling on this machine (req/s, bench/src/execute/ceiling.ts): each served repetition records its share of it. */
  readonly ceilingRate?: number | undefined;
  /** Names the random order of each round (interleave.ts: randomized interleaved trials); absent: A B, B A alternation. */
  readonly orderKey?: string;
  /** Called after every case with its record per implementation (in `impls` order). */
  recorded(c: C, records: ReadonlyMap<string, BenchCase>): Promise<void>;
  /** True once the run is being interrupted (Ctrl-C): the case in progress is not recorded. */
  stopping(): boolean;
}

/** What one implementation's side of a case came to. */
export interface Outcome {
  repetitions: Repetition[];
  failure?: CaseFailure;
  crossCheck?: CaseCrossCheck;
  floorAtRate?: CaseFloorAtRate;
  warmup?: CaseWarmup;
}

/**
 * Which start of the implementations a mode measures (options.processPairs): the k-th of
 * `of`, and its share of the case's rounds (separate loads) or switched pairs, numbered
 * `first` to `last` across the case so that each repetition's index is unique in it.
 */
export interface ProcessShare {
  readonly k: number;
  readonly of: number;
  readonly first: number;
  readonly last: number;
}

/** The k-th of `of` shares of n rounds: as even as possible, the first n mod `of` one longer. */
export function shareOf(n: number, of: number, k: number): ProcessShare {
  const base = Math.floor(n / of);
  const extra = n % of;
  const first = (k - 1) * base + Math.min(k - 1, extra) + 1;
  return { k, of, first, last: first + base + (k <= extra ? 1 : 0) - 1 };
}

/** A repetition's `process`, recorded where the case has several process pairs. */
export const processField = (p: ProcessShare): { process?: number } => (p.of > 1 ? { process: p.k } : {});

/** A served case as its modes see it: the case, its first step, the servers running and each implementation's outcome so far. */
export interface ServedCase<C extends PlannedCase> {
  readonly c: C;
  readonly firstStep: number;
  readonly deps: CaseLoopDeps<C>;
  readonly servers: Map<string, LoopServer>;
  readonly outcomes: Map<string, Outcome>;
  /** "<case> · <impl>" where several implementations run, else the case. */
  label(name: string): string;
}

/** Thrown when the run is interrupted: the case in progress is dropped, not recorded as failed. */
export class Interrupted extends Error {
  constructor() {
    super('interrupted');
    this.name = 'Interrupted';
  }
}

/** Throws Interrupted once the run is being stopped. */
export function checkStopping<C extends PlannedCase>(deps: CaseLoopDeps<C>): void {
  if (deps.stopping()) throw new Interrupted();
}
