// Progress lines while a run goes: "case i/n · rep r/R · <id> · ETA mm:ss", and one
// summary line per finished case. The ETA extrapolates the wall time of the repetitions
// done so far (which includes restarts and k6's start-up), or the planned window length
// before the first one has finished.
import type { CaseFailure, Repetition } from './result-document.ts';

export class Progress {
  private readonly cases: number;
  private readonly repeat: number;
  private readonly plannedSecondsPerRep: number;
  private readonly total: number;
  private done = 0;
  private spentMs = 0;
  private repStarted = 0;

  constructor(cases: number, repeat: number, plannedSecondsPerRep: number) {
    this.cases = cases;
    this.repeat = repeat;
    this.plannedSecondsPerRep = plannedSecondsPerRep;
    this.total = cases * repeat;
  }

  begin(caseIndex: number, rep: number, id: string): void {
    this.repStarted = Date.now();
    const perRepMs = this.done > 0 ? this.spentMs / this.done : this.plannedSecondsPerRep * 1000;
    const eta = formatDuration((this.total - this.done) * perRepMs);
    console.log(`case ${caseIndex}/${this.cases} · rep ${rep}/${this.repeat} · ${id} · ETA ${eta}`);
  }

  end(): void {
    this.done++;
    this.spentMs += Date.now() - this.repStarted;
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
