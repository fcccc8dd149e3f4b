// The plan's time: per step of the case loop (a case for one implementation) its planned
// load, and the seconds the whole plan takes with the overheads a repetition and a case add
// (bench/profiles.yaml `eta`). The ETA before the first case; execute/progress.ts updates it.
import type { EtaOverheads } from './profiles.ts';

/** No overhead: the ETA of the planned load alone. */
export const NO_OVERHEAD: EtaOverheads = { repetitionOverheadSeconds: 0, caseOverheadSeconds: 0 };

/** A step's (a case for one implementation) planned load: seconds per load, what its first load's longer warm-up adds, and its warm-up iterations. */
export interface StepLoad {
  readonly seconds: number;
  readonly firstExtra: number;
  /** Warm-up iterations planned before its repetitions (warm-up.ts); absent: none. */
  readonly warmups?: number;
}

/** The seconds a plan takes. */
export function plannedSeconds(stepLoads: readonly StepLoad[], repeat: number, eta: EtaOverheads): number {
  return stepLoads.reduce(
    (a, load) => a + (repeat + (load.warmups ?? 0)) * (load.seconds + eta.repetitionOverheadSeconds) + load.firstExtra + eta.caseOverheadSeconds,
    0,
  );
}
