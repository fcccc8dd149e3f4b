// What the runner hands the baseline client (a JSON file) and what the client writes back.
import type { ArgKind, Model } from '../scenario.ts';

export interface BaselineConfig {
  readonly mysqlUrl: string;
  readonly poolSize: number;
  readonly sql: string;
  readonly args: readonly ArgKind[];
  readonly rows: number;
  readonly model: Model;
  readonly concurrency: number;
  readonly rate?: number;
  readonly warmupSeconds: number;
  readonly durationSeconds: number;
  readonly seed: number;
  readonly ids: { readonly comment: number; readonly user: number };
  /** Where the client writes its BaselineOutput. */
  readonly out: string;
}

export interface BaselineOutput {
  readonly measureFrom: number;
  readonly measureUntil: number;
  readonly requests: number;
  readonly errors: Record<string, number>;
  readonly latencyUs: { min: number; mean: number; median: number; p90: number; p95: number; p99: number; max: number };
  readonly droppedIterations?: number;
}
