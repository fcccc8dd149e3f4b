// A run's options as the CLI gives them, and what preparing and running it gives back.
import type { RunSettings } from '../load/k6.ts';
import type { BenchResult } from '../record/result-document.ts';
import type { FailedCase } from '../record/run-record.ts';
import type { WarmupIterations } from './warm-up.ts';
import type { EtaOverheads, SwitchedSlices } from './profiles.ts';

export interface BenchOptions {
  /** One or more implementations: several are benchmarked in the same run, alternating. */
  readonly impls: readonly string[];
  readonly api: string;
  readonly repeat: number;
  readonly durationSeconds: number;
  readonly warmupSeconds: number;
  /** A served case's first load's warm-up (the implementation's first since its start); below warmupSeconds it is warmupSeconds. */
  readonly firstWarmupSeconds: number;
  /** Unrecorded iterations before a served case's repetitions (bench/src/plan/warm-up.ts); absent or max 0: none. */
  readonly warmupIterations?: WarmupIterations;
  /** A comparison's repetitions as switched slices of one load (bench/profiles.yaml), where the API's script can send them. */
  readonly switchedSlices?: SwitchedSlices;
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
  /** TOPOLOGY: a topology file (bench/src/execute/topology/): the database, the implementation and the generators on the hosts it names. */
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

/** What every load of the run shares: the window, the warm-up and the PRNG seed. */
export function runSettings(opts: BenchOptions): RunSettings {
  return { warmupSeconds: opts.warmupSeconds, durationSeconds: opts.durationSeconds, seed: opts.seed };
}

/** How a comparison's served cases were cut into switched slices (recorded as options.switchedSlices). */
export type SwitchedPlan = NonNullable<BenchResult['options']['switchedSlices']>;

/**
 * Switched slices where they apply: the profile asks for them, the API's script can send them
 * (api.yaml bench.switching), two implementations are compared, all on this machine (a
 * topology's k6 instances share a scenario by segments, not slices). Each slice is its
 * window after its guard.
 */
export function switchedSlices(opts: BenchOptions, scriptSwitches: boolean, impls: number): SwitchedPlan | undefined {
  const s = opts.switchedSlices;
  if (!s || !scriptSwitches || impls !== 2 || opts.topology !== undefined) return undefined;
  return { pairs: s.pairs, sliceSeconds: s.windowSeconds + s.guardSeconds, guardSeconds: s.guardSeconds };
}

/** The warm-up of a served case's first load: the given one, never shorter than every repetition's. */
export function firstWarmup(opts: BenchOptions): number {
  return Math.max(opts.warmupSeconds, opts.firstWarmupSeconds);
}
