// Proof of work around the case loop's loads (issue 57): the database's counters read
// through each load (load/work-sampler.ts), and each window's work checked against the
// answers k6 counted and the API's work model (record/work-check.ts). Recorded in the
// repetition and printed loudly where work is missing; such a repetition is set aside and
// its case fails (record/validity.ts, loop.ts' record()).
import type { PlannedCase } from '../../plan/api-module.ts';
import { WorkSampler } from '../../load/work-sampler.ts';
import { tierOf, type Repetition, type RepetitionWork } from '../../record/result-document.ts';
import { checkWork, type Answers } from '../../record/work-check.ts';
import type { CaseLoopDeps } from './deps.ts';

/** Starts reading `impl`'s database (absent: the run's, the database-alone client's); undefined where the run checks no work or cannot read. */
export async function startWork<C extends PlannedCase>(deps: CaseLoopDeps<C>, impl?: string): Promise<WorkSampler | undefined> {
  if (!deps.work) return undefined;
  try {
    const sampler = new WorkSampler(await deps.work.open(impl), deps.work.everyMs);
    await sampler.start();
    return sampler;
  } catch (error) {
    console.log(`  work counters${impl ? ` of ${impl}'s database` : ''} not read: ${error instanceof Error ? error.message : String(error)}`);
    return undefined;
  }
}

/** A repetition's answers by request type; without types, a case of one type answered them all. */
export function answersOf(c: PlannedCase, rep: Repetition): Answers {
  if (rep.requestTypes) return Object.fromEntries(Object.entries(rep.requestTypes).map(([t, r]) => [t, { requests: r.requests, errors: r.errors }]));
  const only = c.requestTypes?.length === 1 ? c.requestTypes[0] : undefined;
  const errors = Object.values(rep.errors).reduce((a, b) => a + b, 0);
  return only ? { [only]: { requests: rep.requests, errors } } : {};
}

/** Several windows' answers together (a switched load's slices). */
export function sumAnswers(all: readonly Answers[]): Answers {
  const out: Record<string, { requests: number; errors: number }> = {};
  for (const answers of all)
    for (const [t, a] of Object.entries(answers)) {
      const sum = (out[t] ??= { requests: 0, errors: 0 });
      sum.requests += a.requests;
      sum.errors += a.errors;
    }
  return out;
}

/** The work of the window from..to (Date.now() ms) against `answers`; undefined where the run checks no work. */
export function workOf<C extends PlannedCase>(
  deps: CaseLoopDeps<C>,
  sampler: WorkSampler | undefined,
  c: C,
  answers: Answers,
  window: { from: number; to: number; kind: RepetitionWork['window']; sharedServer: boolean },
): RepetitionWork | undefined {
  if (!deps.work) return undefined;
  const work = sampler ? sampler.between(window.from, window.to) : "the database's counters could not be read";
  if (typeof work === 'string') return { window: window.kind, verdict: 'not checkable', reasons: [work], counters: [] };
  const parameters = Object.fromEntries(Object.entries(c.parameters).filter((e): e is [string, number] => typeof e[1] === 'number'));
  return { window: window.kind, ...checkWork(deps.work.model, answers, work, { parameters, sharedServer: window.sharedServer, tier: tierOf(c) }) };
}

/** Says so loudly where the work is missing. */
export function sayMissing(label: string, index: number, work: RepetitionWork | undefined): void {
  if (work?.verdict === 'missing work') console.log(`  MISSING WORK in ${label}, repetition ${index}: ${work.reasons.join('; ')}`);
}
