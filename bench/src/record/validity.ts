// Which repetitions are measurements. A repetition is invalid when the data broke the API's
// conditions after its load (the case loop's check), when the server answered with server
// errors (5xx) where the case does not measure failures: a figure of a server that fails is
// not a figure of the work the contract asks for (a 500 is a bug; a 503 is the server giving
// up under this load), or when the database did less work than its answers need (proof of
// work: an answer from a cache, a write acknowledged and not made). Invalid repetitions stay in the result with the reason in their notes;
// no figure or verdict uses them, and the run says so loudly.
import type { Repetition } from './result-document.ts';

/** HTTP statuses 500–599: k6 records failed requests by status ('0' where no response came). */
const isServerError = (status: string): boolean => /^5\d\d$/.test(status);

/** The repetition's server errors by status; empty when none. */
export function serverErrors(errors: Readonly<Record<string, number>>): Record<string, number> {
  return Object.fromEntries(Object.entries(errors).filter(([status, n]) => isServerError(status) && n > 0));
}

/** "500 × 60, 503 × 2" */
export const statusCounts = (counts: Readonly<Record<string, number>>): string =>
  Object.entries(counts)
    .map(([status, n]) => `${status} × ${n}`)
    .join(', ');

/**
 * The repetition, marked invalid when the server answered 5xx and the case does not measure
 * failures (failuresMeasured: an error rate, a time to failure).
 */
export function withServerErrors(rep: Repetition, failuresMeasured: boolean): Repetition {
  const errors = serverErrors(rep.errors);
  if (failuresMeasured || Object.keys(errors).length === 0) return rep;
  const note = `invalid: the server answered ${statusCounts(errors)} (server errors): a figure of a failing server`;
  return { ...rep, invalid: true, notes: [...(rep.notes ?? []), note] };
}

/** The repetition, marked invalid when its window's work is missing (record/work-check.ts). */
export function withWork(rep: Repetition): Repetition {
  if (rep.work?.verdict !== 'missing work') return rep;
  const note = `invalid: missing work: the database did less than the answers need (${rep.work.reasons.join('; ')})`;
  return { ...rep, invalid: true, notes: [...(rep.notes ?? []), note] };
}

/** The repetitions whose work is missing: the case fails (record()), whatever its other repetitions measured. */
export const missingWork = (reps: readonly Repetition[]): Repetition[] => reps.filter((r) => r.work?.verdict === 'missing work');

/** The repetitions figures and verdicts may use. */
export const validRepetitions = (reps: readonly Repetition[]): Repetition[] => reps.filter((r) => !r.invalid);

/** Why a case's invalid repetitions are invalid: their notes' reasons, each once (the counts, which each repetition's note keeps, left out). */
export function invalidReasons(reps: readonly Repetition[]): string[] {
  const reasons = reps
    .filter((r) => r.invalid)
    .flatMap((r) => (r.notes ?? []).filter((n) => n.startsWith('invalid: ')).map((n) => n.slice('invalid: '.length).replace(/ × \d+/g, '')));
  return [...new Set(reasons)];
}
