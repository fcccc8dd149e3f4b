// What a load (k6, or a database-alone client) hands the case loop: the measured window, and
// the started process(es) that produce it.
import type { ManagedProcess } from '@fairbench/harness/process.ts';
import type { Apdex, GeneratorInstance, LatencySummary, OverTime, RequestTypeResult, StressOutcome, TimelinePoint } from '../record/result-document.ts';

/** What one measured window produced, from the generator's side. */
export interface Measured {
  /** Date.now() bounds of the measured window. */
  readonly window: { readonly from: number; readonly to: number };
  readonly durationSeconds: number;
  readonly requests: number;
  readonly errors: Record<string, number>;
  readonly throughput: number;
  readonly latencyMs: LatencySummary;
  /** Server-Timing app;dur= over the window, when the responses carried it. */
  readonly serverMs?: LatencySummary;
  readonly requestTypes?: Record<string, RequestTypeResult>;
  readonly droppedIterations?: number;
  /** Latency per second from the load's start (warm-up included), when the script was asked for it. */
  readonly timeline?: TimelinePoint[];
  readonly apdex?: Apdex;
  readonly overTime?: OverTime;
  readonly stress?: StressOutcome;
  /**
   * Switched slices (bench/k6/measure.js target()): each slice's own window (its guard left
   * out) and figures, and the index of the implementation it went to; the rest is the whole load's.
   */
  readonly slices?: readonly SliceMeasured[];
  /** Several k6 instances (k6-instances.ts): each one's host, execution segment and requests; the rest is their exact merge. */
  readonly generatorInstances?: readonly GeneratorInstance[];
  readonly notes: string[];
}

export interface StartedLoad {
  readonly process: ManagedProcess;
  /** Several k6 instances: all of them (`process` is the first), sampled as one generator. */
  readonly processes?: readonly ManagedProcess[];
  /** Resolves with the repetition's numbers once k6 has finished. */
  readonly done: Promise<Measured>;
}

/** One switched slice: the implementation it went to (an index in the load's bases) and what it measured. */
export interface SliceMeasured {
  readonly side: number;
  readonly measured: Measured;
}
