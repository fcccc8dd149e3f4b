// What one conformance case produced.
import { diff } from 'jest-diff';

export interface CaseResult {
  readonly id: string;
  /** questions | scenarios | bad-input | schema | health */
  readonly group: string;
  readonly passed: boolean;
  readonly failures: readonly string[];
  readonly ms: number;
}

const MAX_DIFF_LINES = 40;

/** A readable, bounded diff between what the spec/oracle expects and what came back. */
export function readableDiff(expected: unknown, actual: unknown): string {
  const text = diff(expected, actual, { expand: false, contextLines: 2, aAnnotation: 'Expected', bAnnotation: 'Received' }) ?? '';
  const lines = text.split('\n');
  return lines.length <= MAX_DIFF_LINES ? text : [...lines.slice(0, MAX_DIFF_LINES), `… ${lines.length - MAX_DIFF_LINES} more diff lines`].join('\n');
}

/** Runs one case body, timing it and turning a thrown error into a failure. */
export async function runCase(id: string, group: string, body: () => Promise<string[]>): Promise<CaseResult> {
  const started = performance.now();
  let failures: string[];
  try {
    failures = await body();
  } catch (error) {
    failures = [`the case could not run: ${error instanceof Error ? error.message : String(error)}`];
  }
  return { id, group, passed: failures.length === 0, failures, ms: performance.now() - started };
}
