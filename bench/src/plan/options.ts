// A run's options resolved: what the user requested (requested.ts), the profile's values for
// the rest (every option-table row with a `profile` path), the table's defaults; and what
// preparing and running a run gives back. The run records them once (run-plan.ts planRun:
// RecordedOptions), and the case loop and the report read the recorded ones.
import type { RunSettings } from '../load/k6.ts';
import { UsageError } from '../load/failure.ts';
import type { RecordedOptions } from '../record/result-document.ts';
import type { FailedCase } from '../record/run-record.ts';
import { defaultOf, rowsOf, valueAt } from './option-table.ts';
import type { EtaOverheads, Profile } from './profiles.ts';
import type { Requested } from './requested.ts';

/** How a comparison's served cases are cut into switched slices: the profile's request, and what the run records where it applies. */
export type SwitchedPlan = NonNullable<RecordedOptions['switchedSlices']>;

/** The profile's options with the requested ones in their place (bench/profiles.yaml; the table's `profile` paths). */
type ProfileOptions = Omit<Profile, 'name' | 'description' | 'cases' | 'switchedSlices'>;

export interface ResolvedOptions extends ProfileOptions {
  /** One or more implementations: several are benchmarked in the same run, alternating. */
  readonly impls: readonly string[];
  readonly api: string;
  /** A comparison's repetitions as switched slices of one load (the profile's), where the API's script can send them. */
  readonly switchedSlices?: SwitchedPlan;
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
  /** A topology file (bench/src/execute/topology/): the database, the implementation and the generators on the hosts it names. */
  readonly topology?: string;
  /** CROSSCHECK=wrk: the closed-model cases measured by wrk too, once after their repetitions. */
  readonly crossCheck?: string;
}

/** A copy of `o` with the value at a dotted path replaced. */
function withValue<T>(o: T, path: string, value: unknown): T {
  const [head, ...rest] = path.split('.');
  const inner = rest.length ? withValue((o as Record<string, unknown>)[head!], rest.join('.'), value) : value;
  return { ...o, [head!]: inner };
}

/**
 * The options of a make bench run but its API and cases (chosen per API): each option the
 * user requested, else the profile's, else the table's default. The profile's switched
 * slices become the plan the run records (a slice is its window after its guard).
 */
export function resolveOptions(requested: Requested, profile: Profile, eta: EtaOverheads): Omit<ResolvedOptions, 'api' | 'cases'> {
  let fromProfile: Profile = profile;
  let defaults: Record<string, unknown> = {};
  for (const row of rowsOf('bench')) {
    const given = (requested as Record<string, unknown>)[row.name];
    if (row.profile) fromProfile = withValue(fromProfile, row.profile, given ?? valueAt(profile, row.profile));
    else if ('default' in row) defaults = { ...defaults, [row.name]: given ?? row.default };
  }
  // The steadiness rule compares two iterations: one alone could never stop early.
  if (fromProfile.warmupIterations.max === 1)
    throw new UsageError('WARMUP_ITERATIONS must be 0 (none) or at least 2 (the rule compares two iterations), got 1');
  const { name, description: _description, cases: _cases, switchedSlices, ...options } = fromProfile;
  const s = switchedSlices;
  return {
    ...options,
    impls: requested.impls ?? [],
    profile: name,
    eta,
    pin: defaults['pin'] as boolean,
    seed: defaults['seed'] as number,
    ...(s ? { switchedSlices: { pairs: s.pairs, sliceSeconds: s.windowSeconds + s.guardSeconds, guardSeconds: s.guardSeconds } } : {}),
    ...(requested.protocols ? { protocols: requested.protocols } : {}),
    ...(requested.models ? { models: requested.models } : {}),
    ...(requested.topology ? { topology: requested.topology } : {}),
    ...(requested.crossCheck ? { crossCheck: requested.crossCheck } : {}),
  };
}

/** One load's settings from the recorded options: `first`, a served case's first load, warms up longer (options.firstWarmupSeconds). */
export function loadSettings(options: Pick<RecordedOptions, 'warmupSeconds' | 'firstWarmupSeconds' | 'durationSeconds' | 'seed'>, first: boolean): RunSettings {
  return {
    warmupSeconds: first ? Math.max(options.warmupSeconds, options.firstWarmupSeconds ?? 0) : options.warmupSeconds,
    durationSeconds: options.durationSeconds,
    seed: options.seed ?? (defaultOf('seed') as number),
  };
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
