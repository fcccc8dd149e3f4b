// What an API's pact module (apis/<name>/pact/index.ts, named by `pact:` in its api.yaml)
// gives the runner: the k6 runs that make up the consumer test, the interactions those runs
// must use (exactly), and the provider states, set up by writing the database directly.
import type { V3Interaction } from '@pact-foundation/pact';
import type { Seeded } from '@fairbench/harness/api/dataset.ts';
import type { DatabaseKind, DatabaseServer } from '@fairbench/harness/provision/types.ts';

/** One run of the API's k6 script against Pact's mock server (BASE_URL and SUMMARY_PATH are added). */
export interface ConsumerRun {
  readonly name: string;
  readonly env: Readonly<Record<string, string | number>>;
  /**
   * The interactions (by description) this run uses, served alone by a mock server of its own:
   * for requests Pact cannot tell apart by matching (TPC-C's rolled-back new order has the
   * same shape as any other). Runs without it share one mock serving every other interaction.
   */
  readonly only?: readonly string[];
}

/** What a provider state's handler may use: the seeded databases of the running implementation. */
export interface StateContext {
  readonly databases: ReadonlyMap<DatabaseKind, DatabaseServer>;
  readonly seeded: Seeded<unknown>;
  /** The JWT_SECRET the implementation was started with (tokens are forged with it). */
  readonly jwtSecret: string;
}

/** Sets a state up; what it returns fills the interaction's fromProviderState expressions. */
export type StateHandler = (ctx: StateContext, params: Readonly<Record<string, unknown>>) => Promise<Record<string, unknown> | void>;

export interface PactModule {
  /** Every interaction the runs use; each must be used by at least one run. */
  readonly interactions: readonly V3Interaction[];
  /** Runs of bench/k6.js, small and fast, that together send every kind of request the benchmark sends. */
  readonly runs: readonly ConsumerRun[];
  /** Provider states by name: every state an interaction names must be here. */
  readonly states: Readonly<Record<string, StateHandler>>;
}
