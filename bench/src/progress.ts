// Progress lines while a run goes: "case i/n · rep r/R · <id> · ETA mm:ss", and one
// summary line per finished case. The ETA is computed from the plan, not extrapolated from
// the cases done so far (which differ in length): every repetition still to run costs its
// planned load (warm-up + window, or what the API's module plans for it) plus k6's start
// and summary, and every step not yet started a restart (bench/profiles.yaml `eta`) and its
// first repetition's longer warm-up. Once
// repetitions have run, the overhead measured on them replaces the configured one.
import type { EtaOverheads } from './profiles.ts';
import type { CaseFailure, Repetition } from './result-document.ts';

/** No overhead: the ETA of the planned load alone. */
export const NO_OVERHEAD: EtaOverheads = { repetitionOverheadSeconds: 0, caseOverheadSeconds: 0 };

/** A step's (a case for one implementation) planned load: seconds per repetition, and what its first repetition's longer warm-up adds. */
export interface StepLoad {
  readonly seconds: number;
  readonly firstExtra: number;
}

/** The seconds a plan takes. */
export function plannedSeconds(stepLoads: readonly StepLoad[], repeat: number, eta: EtaOverheads): number {
  return stepLoads.reduce((a, load) => a + repeat * (load.seconds + eta.repetitionOverheadSeconds) + load.firstExtra + eta.caseOverheadSeconds, 0);
}

export class Progress {
  private readonly steps: number;
  private readonly repeat: number;
  private readonly loads: readonly StepLoad[];
  private readonly eta: EtaOverheads;
  /** Repetitions begun per step (1-based step index). */
  private readonly begun = new Map<number, number>();
  private current = 0;
  private repStarted = 0;
  private measuredOverheadMs = 0;
  private measured = 0;

  constructor(stepLoads: readonly StepLoad[], repeat: number, eta: EtaOverheads = NO_OVERHEAD) {
    this.steps = stepLoads.length;
    this.repeat = repeat;
    this.loads = stepLoads;
    this.eta = eta;
  }

  /** The seconds still to go when step `step` begins repetition `rep`: its own repetition included. */
  remainingSeconds(step: number, rep: number): number {
    const overhead = this.measured > 0 ? this.measuredOverheadMs / this.measured / 1000 : this.eta.repetitionOverheadSeconds;
    let total = 0;
    for (let s = 1; s <= this.steps; s++) {
      const begun = s === step ? rep - 1 : (this.begun.get(s) ?? 0);
      const left = Math.max(0, this.repeat - begun);
      const load = this.loads[s - 1];
      total += left * ((load?.seconds ?? 0) + overhead);
      if (begun === 0 && left > 0) total += this.eta.caseOverheadSeconds + (load?.firstExtra ?? 0);
    }
    return total;
  }

  begin(caseIndex: number, rep: number, id: string): void {
    this.repStarted = Date.now();
    this.current = caseIndex;
    const eta = formatDuration(this.remainingSeconds(caseIndex, rep) * 1000);
    this.begun.set(caseIndex, rep);
    console.log(`case ${caseIndex}/${this.steps} · rep ${rep}/${this.repeat} · ${id} · ETA ${eta}`);
  }

  end(): void {
    const step = this.loads[this.current - 1];
    const load = (step?.seconds ?? 0) + (this.begun.get(this.current) === 1 ? (step?.firstExtra ?? 0) : 0);
    this.measuredOverheadMs += Math.max(0, Date.now() - this.repStarted - load * 1000);
    this.measured++;
  }

  /** One line per finished case: its medians, or FAILED with the reason (and what the repetitions before measured). */
  caseLine(id: string, reps: readonly Repetition[], failure?: CaseFailure): void {
    if (failure) {
      const at = failure.repetition ? ` in repetition ${failure.repetition}` : '';
      console.log(`  ${id}: FAILED (${failure.kind})${at}: ${failure.reason}`);
      if (reps.length === 0) return;
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)] ?? 0;
    const errors = reps.reduce((n, r) => n + Object.values(r.errors).reduce((a, b) => a + b, 0), 0);
    const gen = median(reps.map((r) => r.generator?.cpuPercentMean ?? 0));
    const srv = reps.some((r) => r.server) ? ` · server CPU ${median(reps.map((r) => r.server?.cpuPercentMean ?? 0))}%` : '';
    const bound = reps.some((r) => r.generatorBound) ? ' · GENERATOR-BOUND' : '';
    const head = failure ? `    measured before it (${reps.length} repetition${reps.length === 1 ? '' : 's'}${reps.at(-1)?.partial ? ', the last partial' : ''}): ` : `  ${id}: `;
    console.log(
      `${head}${median(reps.map((r) => r.throughput)).toFixed(0)} req/s · p95 ${median(reps.map((r) => r.latencyMs.p95)).toFixed(1)} ms` +
        ` · errors ${errors}${srv} · generator CPU ${gen}%${bound}`,
    );
  }
}

export function formatDuration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  const h = Math.floor(s / 3600);
  const mm = String(Math.floor((s % 3600) / 60)).padStart(2, '0');
  const ss = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${mm}:${ss}` : `${mm}:${ss}`;
}
