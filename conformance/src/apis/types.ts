// What an API contributes to the suite. Adding an API = a module implementing
// this plus its case files under conformance/cases/<api>/.
import type { ApiName } from '@fairbench/harness/impl/manifest.ts';
import type { DatabaseKind, DatabaseServer } from '@fairbench/harness/provision/types.ts';
import type { RowStore } from '../changes.ts';
import type { Oracle } from '../context.ts';

export interface DatasetInfo {
  readonly name: string;
  readonly scale: Readonly<Record<string, number>>;
  /** Content hash of the generated rows. */
  readonly fingerprint: string;
  readonly rows: Readonly<Record<string, number>>;
  readonly loadMs: number;
}

export interface PreparedApi {
  readonly dataset: DatasetInfo;
  readonly oracle: Oracle;
  readonly rows: RowStore;
  close(): Promise<void>;
}

export interface ConformanceApi {
  readonly name: ApiName;
  readonly databases: readonly DatabaseKind[];
  /** Whether the API also has a GraphQL endpoint (POST /graphql, spec/schema.graphql). */
  readonly graphql: boolean;
  /** Creates the schema and seeds it (identically every time); returns the oracle for that seed. */
  prepare(databases: ReadonlyMap<DatabaseKind, DatabaseServer>): Promise<PreparedApi>;
}
