// What an API contributes to the suite. Adding an API = a module implementing
// this plus its case files under conformance/cases/<api>/.
import type { ApiName } from '@fairbench/harness/impl/manifest.ts';
import type { DatabaseKind, DatabaseServer } from '@fairbench/harness/provision/types.ts';
import type { DataStore, RowStore } from '../changes.ts';
import type { Oracle } from '../context.ts';
import type { MongoStore } from '../stores/mongo.ts';

export interface DatasetInfo {
  readonly name: string;
  readonly scale: Readonly<Record<string, number>>;
  /** Content hash of the generated rows. */
  readonly fingerprint: string;
  readonly rows: Readonly<Record<string, number>>;
  readonly loadMs: number;
}

/**
 * The suites, each walking its case file conformance/cases/<api>/<suite>.yaml:
 * questions and scenarios ask an oracle (read-only relational APIs), flows run
 * request sequences with saved values and database checks (APIs that write),
 * bad-input sends single bad requests.
 */
export type SuiteName = 'questions' | 'scenarios' | 'flows' | 'bad-input';

export interface PreparedApi {
  readonly dataset: DatasetInfo;
  /** Every suite's "the data is unchanged" check digests this. */
  readonly store: DataStore;
  /** questions/scenarios: expected answers and row-level access (forum). */
  readonly oracle?: Oracle;
  readonly rows?: RowStore;
  /** flows: stored documents, read directly. */
  readonly documents?: MongoStore;
  /** flows: the seed's named fixtures ({{alice.id}} in a case file). */
  readonly variables?: Readonly<Record<string, unknown>>;
  /** flows: puts the seed back after a flow changed the data. */
  reset?(): Promise<void>;
  close(): Promise<void>;
}

export interface ConformanceApi {
  readonly name: ApiName;
  readonly databases: readonly DatabaseKind[];
  /** Whether the API also has a GraphQL endpoint (POST /graphql, spec/schema.graphql). */
  readonly graphql: boolean;
  /** The suites this API has case files for, in the order they run (after the protocol cases). */
  readonly suites: readonly SuiteName[];
  /** Creates the schema and seeds it (identically every time); returns the oracle for that seed. */
  prepare(databases: ReadonlyMap<DatabaseKind, DatabaseServer>): Promise<PreparedApi>;
}
