// The failures a benchmark expects — a load that outruns its limit, a generator or
// implementation that exits, a database that stops answering — as values the runner
// records in the result (a case's `failure`), apart from bugs, which keep their stack.
import type { CaseFailure, FailureKind } from '../record/result-document.ts';
import type { Measured } from './measured.ts';

/** A repetition's load (k6 or the baseline client) did not finish normally; `measured` is what it measured before, if anything. */
export class LoadFailure extends Error {
  readonly kind: FailureKind;
  readonly measured: Measured | undefined;
  readonly detail: string | undefined;
  constructor(kind: FailureKind, reason: string, opts: { measured?: Measured | undefined; detail?: string | undefined } = {}) {
    super(reason);
    this.name = 'LoadFailure';
    this.kind = kind;
    this.measured = opts.measured;
    this.detail = opts.detail;
  }
}

/** The options given cannot run (bad values, a RESUME that does not match): a message, exit code 2, no stack. */
export { UsageError } from '@fairbench/harness/cli/usage.ts';

/** Programming errors: these are bugs wherever they are thrown, never a case's failure (a SyntaxError is not among them: at run time it is JSON.parse of a truncated output). */
export function isBug(error: unknown): boolean {
  return error instanceof TypeError || error instanceof RangeError || error instanceof ReferenceError;
}

/** An error from starting or running a party of a case as that case's failure; bugs are rethrown. */
export function asFailure(kind: FailureKind, error: unknown, prefix = ''): CaseFailure {
  if (isBug(error)) throw error;
  if (error instanceof LoadFailure) return failure(error.kind, error.message, error.detail);
  const text = error instanceof Error ? error.message : String(error);
  const [first = '', ...rest] = text.trim().split('\n');
  return failure(kind, `${prefix}${first}`, rest.join('\n'));
}

export function failure(kind: FailureKind, reason: string, detail?: string): CaseFailure {
  const line = reason.split('\n')[0]!.trim() || kind;
  return { kind, reason: line, ...(detail?.trim() ? { detail: detail.trim() } : {}) };
}

/** A load that finished without a single request counted: its latency is above what k6 waited for, not 0 ms as its summary would say. */
export function emptyWindow(m: Measured): CaseFailure | undefined {
  if (m.requests > 0) return undefined;
  return failure(
    'empty-window',
    `no request started in the ${m.durationSeconds}-s measured window ended before k6 stopped (its grace period included): the latency is above that, not measured; a longer DURATION would measure it`,
  );
}
