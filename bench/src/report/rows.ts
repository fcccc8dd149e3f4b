// The rows the report model is made of: per case and implementation its estimates
// (CaseResult), per case its implementations (CaseRow), per protocol and model its cases
// (CaseGroup). Types alone, so that the model's parts (published findings, the tiers) and
// the HTML can share them without importing the model.
import type { MedianEstimate, RatioEstimate } from '../stats/index.ts';
import type { BenchCase, BenchResult, Repetition, Tier } from '../record/result-document.ts';
import {} from '../record/limit.ts';

export const LATENCY_STATS = ['min', 'median', 'mean', 'p95', 'p99', 'max'] as const;
export type LatencyStat = (typeof LATENCY_STATS)[number];

export interface CaseResult {
  impl: string;
  run: BenchResult;
  case: BenchCase;
  n: number;
  throughput: MedianEstimate;
  /** Per statistic, its median over the repetitions. */
  latency: Record<LatencyStat, number>;
  latencyMedian: MedianEstimate;
  latencyP95: MedianEstimate;
  /** The same run's database-alone case with the same model and parameters, if it has one. */
  /** The limit at this case's point (limitFor: the native tier where it ran, else the driver's). */
  baseline: { caseId: string; tier: Tier; throughput: MedianEstimate; ratio: RatioEstimate } | null;
  /** Over the repetitions: the highest peak, the median of the means. */
  server: { cpuPeak: number; cpuMean: number; rssPeak: number } | null;
  generator: { cpuPeak: number; cpuMean: number } | null;
  /** µs of CPU per completed request of each process tree, the median over the repetitions that recorded it, with its interval. */
  cpuPerRequest: CpuEstimates;
  /** The same run's database-alone case: its database server's and its client's µs per query. */
  baselineCpu: CpuEstimates | null;
  /** The median share of the run's generator ceiling, and in how many repetitions it was above CEILING_SHARE_WARNING. */
  ceiling: { share: number; above: number } | null;
  generatorBound: number;
  errors: Record<string, number>;
  errorCount: number;
  dropped: number;
  /** The repetition whose throughput is closest to the median: the one plotted over time. */
  representative: Repetition;
  /** Proof of work over the repetitions (their `work`): how many were checked, and why the others could not be. */
  work: WorkSummary;
}

/** The work verdicts of a case's repetitions: a figure whose work was missing is never here (its case failed). */
export interface WorkSummary {
  checked: number;
  notCheckable: number;
  /** Repetitions of a run before proof of work, or of a database-alone case. */
  unrecorded: number;
  /** Why the not checkable ones were not, each reason once. */
  reasons: string[];
}

export interface CpuEstimates {
  server: MedianEstimate | null;
  database: MedianEstimate | null;
  generator: MedianEstimate | null;
}

export interface CaseRow {
  id: string;
  protocol: string;
  model: string;
  parameters: BenchCase['parameters'];
  /** By implementation, in the API's implementation order. */
  results: CaseResult[];
}

export interface CaseGroup {
  /** e.g. "rest/closed" */
  key: string;
  protocol: string;
  model: string;
  rows: CaseRow[];
}
