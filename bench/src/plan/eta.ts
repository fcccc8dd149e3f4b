// The plan's time: per step of the case loop (a case for one implementation) its planned
// loads, and the seconds the whole plan takes with what each load and each start costs
// besides its load: the profile's `eta` (bench/profiles.yaml), or the API's own where its
// loads cost more (api.yaml bench.eta: a data reload before each, a slower database client),
// measured on its runs. The ETA before the first case; execute/progress.ts updates it.
import type { EtaOverheads } from './profiles.ts';

/** No overhead: the ETA of the planned load alone. */
export const NO_OVERHEAD: EtaOverheads = { repetitionOverheadSeconds: 0, caseOverheadSeconds: 0 };

/** A step's (a case for one implementation) planned loads. */
export interface StepLoad {
  /** One repetition's planned seconds (of a switched load: its share). */
  readonly seconds: number;
  /** The loads its repetitions take, each paying the per-load overhead: `repeat` separate loads, or its half of each start's switched load. Absent: one per repetition. */
  readonly loads?: number;
  /** One warm-up iteration's planned seconds: always a whole load of its own. Absent: `seconds`. */
  readonly warmupSeconds?: number;
  /** What its starts add: each start's longer first warm-up, and every start after the first's restart. */
  readonly firstExtra: number;
  /** Its starts (process pairs), over which firstExtra is spent. Absent: one. */
  readonly starts?: number;
  /** Warm-up iterations planned before its repetitions, over all its starts (warm-up.ts); absent: none. */
  readonly warmups?: number;
}

/** The seconds one step takes from its first load, `repeat` repetitions and its warm-ups all to run. */
export function stepSeconds(load: StepLoad, repeat: number, eta: EtaOverheads): number {
  const warmups = load.warmups ?? 0;
  return (
    repeat * load.seconds +
    (load.loads ?? repeat) * eta.repetitionOverheadSeconds +
    warmups * ((load.warmupSeconds ?? load.seconds) + eta.repetitionOverheadSeconds) +
    load.firstExtra +
    eta.caseOverheadSeconds
  );
}

/** The seconds a plan takes. */
export function plannedSeconds(stepLoads: readonly StepLoad[], repeat: number, eta: EtaOverheads): number {
  return stepLoads.reduce((a, load) => a + stepSeconds(load, repeat, eta), 0);
}

/** The overheads of an API's run: its own measured ones (api.yaml bench.eta) in place of the profile's. */
export function apiEta(profileEta: EtaOverheads, own: Partial<EtaOverheads> | undefined): EtaOverheads {
  return { ...profileEta, ...own };
}
