// The report's warnings, each a reason to read a figure with care: too few repetitions for
// an interval or a verdict, QUICK or superseded or incomplete runs, a noisy or busy machine,
// a missing or failed limit, generator-bound repetitions, failed requests, the generator's
// ceiling, and a limit (the database alone) that was itself bound or failing.
import { max, MIN_REPETITIONS, MIN_VERDICT_REPETITIONS } from '../../stats/index.ts';
import { docLabel } from '../../record/copies.ts';
import { CEILING_SHARE_WARNING, NATIVE_CLIENT_BOUND_CPU_PERCENT, isDatabaseAlone, tierOf } from '../../record/result-document.ts';
import { limitFor, sameParameters } from '../../record/limit.ts';
import type { LoadedRun } from '../load.ts';
import type { CaseResult } from '../rows.ts';
import { summarizeCase } from './summarize.ts';
import { invalidReasons } from '../../record/validity.ts';

/** Above this CV of the control the machine was noisy at the start of the run. */
const NOISY_CV = 0.1;

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** Per case shown: generator-bound repetitions, failed requests, dropped iterations, the generator's ceiling. */
export function caseWarnings(results: readonly CaseResult[]): string[] {
  const out: string[] = [];
  for (const r of results) {
    const where = `${r.impl} ${r.case.id}`;
    const invalid = r.case.invalidRepetitions ?? [];
    if (invalid.length)
      out.push(
        `INVALID: ${where}: ${plural(invalid.length, 'repetition')} of ${invalid.length + r.n} set aside (${invalidReasons(invalid).join('; ')}): the figures and verdicts use the other ${r.n}`,
      );
    if (r.generatorBound)
      out.push(
        `${where}: ${r.generatorBound} of ${plural(r.n, 'repetition')} generator-bound (k6 CPU peak ${r.generator ? Math.round(r.generator.cpuPeak) : '?'}%${r.dropped ? `, ${r.dropped} dropped iterations` : ''}): the numbers may measure k6, not the server`,
      );
    if (r.errorCount)
      out.push(
        `${where}: ${plural(r.errorCount, 'failed request')} over ${plural(r.n, 'repetition')} (by status: ${Object.entries(r.errors)
          .map(([s, n]) => `${s === '0' ? 'no response' : s} × ${n}`)
          .join(', ')})`,
      );
    if (r.dropped && !r.generatorBound) out.push(`${where}: ${r.dropped} dropped iterations`);
    if (r.ceiling?.above)
      out.push(
        `${where}: ${r.ceiling.above} of ${plural(r.n, 'repetition')} above ${CEILING_SHARE_WARNING * 100}% of the generator's ceiling (median ${Math.round(r.ceiling.share * 100)}% of ${r.run.generator.ceiling ? Math.round(r.run.generator.ceiling.rate) : '?'} req/s): k6 may have shaped the numbers`,
      );
  }
  return out;
}

/** Per implementation: cases with too few repetitions for an interval, or for a verdict. */
export function repetitionWarnings(impls: readonly string[], results: readonly CaseResult[]): string[] {
  const warnings: string[] = [];
  for (const impl of impls) {
    const few = results.filter((r) => r.impl === impl && r.n < MIN_REPETITIONS);
    if (few.length)
      warnings.push(
        `${impl}: too few repetitions in ${plural(few.length, 'case')} (${[...new Set(few.map((r) => r.n))].join(', ')} per case; at least ${MIN_REPETITIONS} are needed): no confidence intervals and no verdicts there`,
      );
    const descriptive = results.filter((r) => r.impl === impl && r.n >= MIN_REPETITIONS && r.n < MIN_VERDICT_REPETITIONS);
    if (descriptive.length)
      warnings.push(
        `${impl}: ${plural(descriptive.length, 'case')} with ${[...new Set(descriptive.map((r) => r.n))].join(', ')} repetitions: intervals shown as descriptive only, no verdicts (a verdict needs at least ${MIN_VERDICT_REPETITIONS} per implementation)`,
      );
  }
  return warnings;
}

/** Per run: QUICK, no ceiling, a noisy control, a busy machine, superseded, incomplete, failed cases. */
export function runWarnings(apiRuns: readonly LoadedRun[], used: ReadonlyMap<LoadedRun, number>): string[] {
  const warnings: string[] = [];
  for (const run of apiRuns) {
    if (run.doc.options.quick && used.has(run))
      warnings.push(`${docLabel(run.doc)}: run ${run.doc.runId} is a QUICK smoke run (${run.doc.options.durationSeconds} s per case), not a measurement`);
    if (used.has(run) && !run.doc.generator.ceiling)
      warnings.push(`${docLabel(run.doc)}: run ${run.doc.runId} recorded no generator ceiling: nothing tells whether k6 limited its cases`);
    const cv = run.doc.generator.ceiling?.cv;
    if (used.has(run) && cv !== undefined && cv > NOISY_CV)
      warnings.push(
        `${docLabel(run.doc)}: run ${run.doc.runId}: the control (k6 against the no-op server) varied by ${(cv * 100).toFixed(1)}% (CV) within its few seconds: differences of that order between runs may be the machine's`,
      );
    const busy = run.doc.machine.noise?.busyProcesses ?? [];
    if (used.has(run) && busy.length)
      warnings.push(
        `${docLabel(run.doc)}: run ${run.doc.runId} started on a busy machine: ${busy.map((p) => `${p.command} (pid ${p.pid}) ${p.cpuPercent}%`).join(', ')} of a core, load average ${run.doc.machine.noise!.loadAverage.join(' ')}`,
      );
    if (!used.has(run)) warnings.push(`${docLabel(run.doc)}: run ${run.doc.runId} is superseded by newer runs with the same cases and not shown`);
    if (run.doc.complete === false)
      warnings.push(
        `${docLabel(run.doc)}: run ${run.doc.runId} is incomplete: ${run.doc.cases.length} of ${run.doc.plannedCases ?? '?'} planned cases recorded (stopped, or still running; make bench … RESUME=${run.doc.runId} continues it)`,
      );
    const failedHere = run.doc.cases.filter((c) => c.failure);
    if (failedHere.length)
      warnings.push(
        `${docLabel(run.doc)}: run ${run.doc.runId}: ${plural(failedHere.length, 'case')} of ${run.doc.cases.length} failed and ${failedHere.length === 1 ? 'is' : 'are'} left out of the tables (see "Failed cases"): ${failedHere.map((c) => `${c.id} (${c.failure!.kind})`).join(', ')}`,
      );
  }
  return warnings;
}

/** Per case shown without a limit: the database-alone case at its point failed, or is missing. */
export function limitWarnings(results: readonly CaseResult[]): string[] {
  const warnings: string[] = [];
  for (const r of results) {
    if (r.baseline) continue;
    const failed = r.run.cases.some(
      (b) => isDatabaseAlone(b.protocol) && b.failure && b.model === r.case.model && sameParameters(b.parameters, r.case.parameters),
    );
    warnings.push(
      `${r.impl} ${r.case.id}: ${failed ? 'the database-alone case with the same model and parameters failed in that run' : 'the run has no database-alone case with the same model and parameters'}`,
    );
  }
  return warnings;
}

/** Per run used: a generator-bound or failing baseline understates the limit every ratio divides by. */
export function baselineWarnings(api: string, apiRuns: readonly LoadedRun[], used: ReadonlyMap<LoadedRun, number>): string[] {
  const warnings: string[] = [];
  for (const run of apiRuns.filter((r) => used.has(r))) {
    const impl = docLabel(run.doc);
    const baselines = run.doc.cases.filter((c) => isDatabaseAlone(c.protocol) && !c.failure).map((c) => summarizeCase(api, impl, run.doc, c));
    const bound = baselines.filter((b) => b.generatorBound && tierOf(b.case) !== 'native');
    const nativeBound = baselines.filter((b) => b.generatorBound && tierOf(b.case) === 'native');
    if (nativeBound.length)
      warnings.push(
        `${impl} run ${run.doc.runId}: the native client used more than ${NATIVE_CLIENT_BOUND_CPU_PERCENT}% of its core in ${nativeBound.length} of ${plural(baselines.filter((b) => tierOf(b.case) === 'native').length, 'native case')} (mean CPU up to ${Math.round(max(nativeBound.map((b) => b.generator?.cpuMean ?? 0)))}%): there the native tier may be the client's limit, not the database's: ${nativeBound.map((b) => b.case.id).join(', ')}`,
      );
    const failing = baselines.filter((b) => b.errorCount);
    const isLimit = (b: CaseResult) => limitFor(run.doc, b.case) === b.case;
    const boundLimits = bound.filter(isLimit);
    const peak = (of: CaseResult[]) => Math.round(max(of.map((b) => b.generator?.cpuPeak ?? 0)));
    if (boundLimits.length)
      warnings.push(
        `${impl} run ${run.doc.runId}: the limit (the database alone) was generator-bound in ${boundLimits.length} of ${plural(baselines.filter(isLimit).length, 'case')} (its client's CPU peak up to ${peak(boundLimits)}%), so the limit there may be understated: ${boundLimits.map((b) => b.case.id).join(', ')}`,
      );
    const boundTiers = bound.filter((b) => !isLimit(b));
    if (boundTiers.length)
      warnings.push(
        `${impl} run ${run.doc.runId}: the driver tier's client was generator-bound in ${boundTiers.length} of ${plural(baselines.filter((b) => tierOf(b.case) === 'driver').length, 'driver case')} (CPU peak up to ${peak(boundTiers)}%): there it shows the driver client's cost as much as the database's (the limit is the native tier): ${boundTiers.map((b) => b.case.id).join(', ')}`,
      );
    if (failing.length)
      warnings.push(
        `${impl} run ${run.doc.runId}: the database alone had failed queries in ${plural(failing.length, 'case')}: ${failing.map((b) => `${b.case.id} (${b.errorCount})`).join(', ')}`,
      );
  }
  return warnings;
}
