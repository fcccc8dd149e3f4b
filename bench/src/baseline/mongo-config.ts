// What the runner hands the MongoDB baseline client (a JSON file) and what it writes back.
import type { FlowStep } from '../apis/users/index.ts';
import type { LatencySummary } from '../result-document.ts';

export interface MongoBaselineConfig {
  readonly api: 'users' | 'documents';
  readonly mongoUrl: string;
  readonly poolSize: number;
  readonly warmupSeconds: number;
  readonly seed: number;
  readonly users?: {
    readonly steps: readonly FlowStep[];
    readonly users: number;
    readonly seconds: number;
    readonly drainSeconds: number;
    readonly bcryptCost: number;
    /** Makes this repetition's usernames unique. */
    readonly prefix: string;
    /** A seeded admin (the baseline has no tokens; kept for the record of what k6 does). */
    readonly adminId: string;
  };
  readonly documents?: {
    readonly kind: string;
    readonly model: 'sequential' | 'closed';
    readonly requests: number;
    readonly concurrency: number;
    readonly durationSeconds: number;
  };
}

/** The result schema's latency summary, in microseconds here. */
export type LatencyUs = LatencySummary;

export interface MongoBaselineOutput {
  readonly measureFrom: number;
  readonly measureUntil: number;
  readonly requests: number;
  readonly errors: Record<string, number>;
  readonly latencyUs: LatencyUs;
  readonly requestTypes: Record<string, { requests: number; errors: number; latencyUs: LatencyUs; partsUs?: Record<string, LatencyUs> }>;
}
