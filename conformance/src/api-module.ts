// What an API's conformance module (apis/<name>/conformance/index.ts) gives the suites:
// a digest of its data for every suite, and for each suite it declares in api.yaml the
// fixture that suite needs — typed per suite, so an API cannot declare a suite without
// providing what the suite reads.
import type { Databases, Seeded } from '@fairbench/harness/api/dataset.ts';
import type { SuiteName } from '@fairbench/harness/api/manifest.ts';
import type { DataStore, RowStore } from './changes.ts';
import type { Oracle } from './context.ts';
import type { Variables } from './flows/variables.ts';
import type { RecordReader } from './stores/records.ts';

export type { SuiteName };

/** questions and scenarios: answers from the seed, and the rows behind them (changes, statement counts). */
export interface AskFixture {
  readonly oracle: Oracle;
  readonly rows: RowStore;
}

/** flows: direct reads of stored records for db: steps, and the seed's named values ({{alice.id}}). */
export interface FlowsFixture {
  readonly records: RecordReader;
  readonly variables: Variables;
  /**
   * Conditions the API's data must meet after every flow, whatever the flow did (e.g. a
   * ledger that still balances): the violated ones, one line each. Checked before the reset.
   */
  readonly invariants?: () => Promise<string[]>;
  /** How many SQL statements other clients (the implementation) have run so far: a counter that only grows (steps with maxStatements). */
  readonly statements?: () => Promise<number>;
}

export interface SuiteFixtures {
  readonly questions: AskFixture;
  readonly scenarios: AskFixture;
  readonly flows: FlowsFixture;
  /** bad-input needs only the digest every API gives. */
  readonly 'bad-input': Readonly<Record<string, never>>;
}

export interface PreparedApi<S extends SuiteName = SuiteName> {
  /** Every suite's "the data is unchanged" check digests this. */
  readonly store: DataStore;
  readonly fixtures: { readonly [K in S]: SuiteFixtures[K] };
  close(): Promise<void>;
}

export interface ConformanceModule<Data = unknown, S extends SuiteName = SuiteName> {
  /** The suites it prepares fixtures for: must equal api.yaml's conformance.suites. */
  readonly suites: readonly S[];
  /** Connects to the seeded databases and builds the fixtures from the seed's rows. */
  prepare(seeded: Seeded<Data>, databases: Databases): Promise<PreparedApi<S>>;
}

/** A prepared API as the runner holds it: whichever suites it has. */
export interface AnyPreparedApi {
  readonly store: DataStore;
  readonly fixtures: Partial<SuiteFixtures>;
  close(): Promise<void>;
}

/** The fixture of one suite, or a clear error naming what the API's module left out. */
export function fixtureOf<K extends SuiteName>(prepared: AnyPreparedApi, suite: K, api: string): SuiteFixtures[K] {
  const fixture = prepared.fixtures[suite];
  if (fixture === undefined) throw new Error(`apis/${api}/conformance/index.ts prepares no fixture for the ${suite} suite that its api.yaml lists`);
  return fixture as SuiteFixtures[K];
}
