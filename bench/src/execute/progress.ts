// Progress lines while a run goes: "case i/n · rep r/R · <id> · ETA mm:ss" (or "warm-up k/≤W"),
// and one summary line per finished case. The ETA is computed from the plan, not
// extrapolated from the cases done so far (which differ in length): every load still to run
// (a warm-up iteration or a repetition) costs its planned seconds (warm-up + window, or what
// the API's module plans for it) plus what a load costs around it (the data's reset, the idle
// wait, k6's start and summary), and every step not yet started a restart and its first
// load's longer warm-up (plan/eta.ts: the profile's or the API's measured `eta`). With process
// pairs the loop tells each start (start-begin): a start's restart and longer warm-up stay
// ahead until its first load, its warm-up iterations count over all starts, and a switched load
// is its start's share of the repetitions. A step is planned with the fewest warm-up
// iterations the steadiness rule can stop at; one that needs more makes the ETA grow as it
// goes. Once loads have run, the overhead measured on them replaces the configured one.
import { NO_OVERHEAD, type StepLoad } from '../plan/eta.ts';
import type { EtaOverheads } from '../plan/profiles.ts';
import type { CaseFailure, CaseWarmup, Repetition } from '../record/result-document.ts';
import type { CaseLoopEvents } from './case-loop/events.ts';

export { NO_OVERHEAD, plannedSeconds, type StepLoad } from '../plan/eta.ts';

export class Progress {
  private readonly steps: number;
  private readonly repeat: number;
  private readonly loads: readonly StepLoad[];
  private readonly eta: EtaOverheads;
  /** Repetitions begun per step (1-based step index); a switched load's share counts as its part of them. */
  private readonly begun = new Map<number, number>();
  /** Warm-up iterations begun per step, over all its starts. */
  private readonly warmed = new Map<number, number>();
  /** Starts begun per step (process pairs). */
  private readonly started = new Map<number, number>();
  private current = 0;
  private repStarted = 0;
  private measuredOverheadMs = 0;
  private measured = 0;
  /** The switched load running (beginSwitched): its planned seconds. */
  private switchedSeconds: number | undefined;
  /** The running load is a warm-up iteration (its planned seconds: the step's warmupSeconds). */
  private warmingUp = false;
  /** The running load is its start's first (it carried the start's extra: firstExtra's share). */
  private startsFirst = false;
  /** Steps whose start began and whose first load of it has not. */
  private readonly awaitingFirst = new Set<number>();

  constructor(stepLoads: readonly StepLoad[], repeat: number, eta: EtaOverheads = NO_OVERHEAD) {
    this.steps = stepLoads.length;
    this.repeat = repeat;
    this.loads = stepLoads;
    this.eta = eta;
  }

  /**
   * The seconds still to go when step `step` begins repetition `rep` (or, `warming`, a warm-up
   * iteration; rep then 0): its own load included. Warm-up iterations count over all of a
   * step's starts, the one beginning even past the plan; the starts' extra (restarts, longer
   * first warm-ups) is spent start by start.
   */
  remainingSeconds(step: number, rep: number, warming = false): number {
    const overhead = this.measured > 0 ? this.measuredOverheadMs / this.measured / 1000 : this.eta.repetitionOverheadSeconds;
    let total = 0;
    for (let s = 1; s <= this.steps; s++) {
      const begun = s === step && rep > 0 ? rep - 1 : (this.begun.get(s) ?? 0);
      const warmed = this.warmed.get(s) ?? 0;
      const load = this.loads[s - 1];
      const warmupsLeft = Math.max(0, (load?.warmups ?? 0) - warmed, s === step && warming ? 1 : 0);
      const repsLeft = Math.max(0, this.repeat - begun);
      const perRepetition = (load?.seconds ?? 0) + (overhead * (load?.loads ?? this.repeat)) / this.repeat;
      total += repsLeft * perRepetition + warmupsLeft * ((load?.warmupSeconds ?? load?.seconds ?? 0) + overhead);
      const starts = load?.starts ?? 1;
      // A start whose first load has not begun (or is beginning): its extra is still ahead.
      const pending = this.awaitingFirst.has(s) && this.started.has(s) ? 1 : 0;
      const startsBegun = Math.max(0, Math.min(starts, this.started.get(s) ?? (begun > 0 || warmed > 0 ? 1 : 0)) - pending);
      if (startsBegun === 0 && repsLeft + warmupsLeft > 0) total += this.eta.caseOverheadSeconds;
      total += ((load?.firstExtra ?? 0) * (starts - startsBegun)) / starts;
    }
    return total;
  }

  /** Follows a case loop: its lines and ETA as its loads begin and end and its cases end. Returns `events`. */
  listen(events: CaseLoopEvents): CaseLoopEvents {
    events.on('load-begin', (e) =>
      e.switched ? this.beginSwitched(e.step, e.switched.steps, e.switched.seconds, e.label, e.switched.share) : this.begin(e.step, e.repetition, e.label),
    );
    events.on('warmup-begin', (e) => this.beginWarmup(e.step, e.iteration, e.max, e.label));
    events.on('start-begin', (e) => {
      for (const s of e.steps) {
        this.started.set(s, e.start);
        this.awaitingFirst.add(s);
      }
    });
    events.on('load-end', () => this.end());
    events.on('case-end', (e) => this.caseLine(e.label, e.repetitions, e.failure, e.warmup));
    return events;
  }

  /** Whether the load `step` begins now is its start's first; call before counting it. */
  private takeFirst(step: number): boolean {
    if (this.awaitingFirst.delete(step)) return true;
    // A step that told no start (one start): its first load of all.
    return !this.started.has(step) && (this.begun.get(step) ?? 0) + (this.warmed.get(step) ?? 0) === 0;
  }

  begin(caseIndex: number, rep: number, id: string): void {
    this.repStarted = Date.now();
    this.current = caseIndex;
    const eta = formatDuration(this.remainingSeconds(caseIndex, rep) * 1000);
    this.startsFirst = this.takeFirst(caseIndex);
    this.begun.set(caseIndex, rep);
    console.log(`case ${caseIndex}/${this.steps} · rep ${rep}/${this.repeat} · ${id} · ETA ${eta}`);
  }

  /** One switched load (case-loop/switched-slices.ts): `share` of the repetitions of `steps` at once (with process pairs, this start's), planned for `seconds`. */
  beginSwitched(caseIndex: number, steps: readonly number[], seconds: number, id: string, share = 1): void {
    this.repStarted = Date.now();
    this.current = caseIndex;
    // Its planned seconds hold a fresh start's longer warm-up already.
    for (const s of steps) this.takeFirst(s);
    this.startsFirst = false;
    for (const s of steps) this.begun.set(s, Math.min(this.repeat, (this.begun.get(s) ?? 0) + share * this.repeat));
    this.switchedSeconds = seconds;
    // Its own steps' loads still to come, and every other step's; this load's own seconds.
    const eta = formatDuration((this.remainingSeconds(0, 0) + seconds) * 1000);
    console.log(`case ${caseIndex}/${this.steps} · ${id} · ETA ${eta}`);
  }

  /** Warm-up iteration `k` (of at most `max`) of a step: unrecorded, before its repetitions. */
  beginWarmup(caseIndex: number, k: number, max: number, id: string): void {
    this.repStarted = Date.now();
    this.current = caseIndex;
    const eta = formatDuration(this.remainingSeconds(caseIndex, 0, true) * 1000);
    this.startsFirst = this.takeFirst(caseIndex);
    this.warmed.set(caseIndex, (this.warmed.get(caseIndex) ?? 0) + 1);
    this.warmingUp = true;
    console.log(`case ${caseIndex}/${this.steps} · warm-up ${k}/≤${max} · ${id} · ETA ${eta}`);
  }

  end(): void {
    const step = this.loads[this.current - 1];
    // A start's first load carried its longer warm-up (and, after the first start, the restart before it).
    const extra = this.startsFirst ? (step?.firstExtra ?? 0) / (step?.starts ?? 1) : 0;
    const own = this.warmingUp ? (step?.warmupSeconds ?? step?.seconds) : step?.seconds;
    const load = this.switchedSeconds ?? (own ?? 0) + extra;
    this.switchedSeconds = undefined;
    this.warmingUp = false;
    this.measuredOverheadMs += Math.max(0, Date.now() - this.repStarted - load * 1000);
    this.measured++;
  }

  /** One line per finished case: its warm-up iterations' rates, then its medians, or FAILED with the reason (and what the repetitions before measured). */
  caseLine(id: string, reps: readonly Repetition[], failure?: CaseFailure | undefined, warmup?: CaseWarmup | undefined): void {
    if (warmup)
      console.log(
        `  ${id}: warm-up ${warmup.iterations.map((i) => Math.round(i.throughput)).join(' → ')} req/s${warmup.steady ? ', steady' : failure?.warmupIteration ? '' : ', still rising'}`,
      );
    if (failure) {
      const at = failure.repetition
        ? ` in repetition ${failure.repetition}`
        : failure.warmupIteration
          ? ` in warm-up iteration ${failure.warmupIteration}`
          : '';
      console.log(`  ${id}: FAILED (${failure.kind})${at}: ${failure.reason}`);
      if (reps.length === 0) return;
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)] ?? 0;
    const errors = reps.reduce((n, r) => n + Object.values(r.errors).reduce((a, b) => a + b, 0), 0);
    const gen = median(reps.map((r) => r.generator?.cpuPercentMean ?? 0));
    const srv = reps.some((r) => r.server) ? ` · server CPU ${median(reps.map((r) => r.server?.cpuPercentMean ?? 0))}%` : '';
    const bound = reps.some((r) => r.generatorBound) ? ' · GENERATOR-BOUND' : '';
    const head = failure
      ? `    measured before it (${reps.length} repetition${reps.length === 1 ? '' : 's'}${reps.at(-1)?.partial ? ', the last partial' : ''}): `
      : `  ${id}: `;
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
