// A case a run recorded as failed: listed apart, with what it measured before it failed.
import { median } from '../../stats/index.ts';
import type { BenchCase, CaseFailure } from '../../record/result-document.ts';
import type { LoadedRun } from '../load.ts';

export interface FailureRow {
  impl: string;
  runId: string;
  file: string;
  case: BenchCase;
  failure: CaseFailure;
  /** What the repetitions before the failure (and the failed one's measured part) measured. */
  measured: { n: number; throughput: number; p95: number } | null;
}

export function failureRow(impl: string, run: LoadedRun, c: BenchCase): FailureRow {
  const reps = c.repetitions;
  return {
    impl,
    runId: run.doc.runId,
    file: run.file,
    case: c,
    failure: c.failure!,
    measured: reps.length ? { n: reps.length, throughput: median(reps.map((r) => r.throughput)), p95: median(reps.map((r) => r.latencyMs.p95)) } : null,
  };
}
