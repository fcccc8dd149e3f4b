// The seam between the harness and whatever runs the databases: local processes
// today, Testcontainers next. Callers only ever see these types.
import type { Host } from '../hosts/host.ts';

export type DatabaseKind = 'mysql' | 'postgres' | 'mongo';
export type RuntimeProviderName = 'local' | 'containers';

export interface DatabaseServer {
  readonly kind: DatabaseKind;
  /**
   * Connection URL with credentials and database name, on 127.0.0.1 (or its topology host's address):
   * mysql://root:<pw>@127.0.0.1:<port>/<db>, postgres://postgres:<pw>@127.0.0.1:<port>/<db>,
   * mongodb://127.0.0.1:<port>/<db>.
   */
  readonly url: string;
  /** What actually answers, as the server reports it (recorded with every result). */
  readonly engine: { readonly name: string; readonly version: string };
  readonly provider: RuntimeProviderName;
  /** Shuts the server down and deletes its data. Idempotent. */
  stop(): Promise<void>;
}

export interface StartDatabaseOptions {
  /** Database to create and put in the URL; default `fairbench`. */
  database?: string;
  /**
   * Run it on this host of a topology (a network namespace here; local provider, MySQL):
   * it listens on the host's address, the URL names that address, and only `clients`
   * (the other hosts' and the harness's addresses) may log in.
   */
  host?: Host;
  clients?: readonly string[];
}

export interface DatabaseProvider {
  readonly name: RuntimeProviderName;
  /** Starts a fresh, empty server with a random password; it is stopped by the process-wide cleanup if the caller does not. */
  start(kind: DatabaseKind, opts?: StartDatabaseOptions): Promise<DatabaseServer>;
}

export const DEFAULT_DATABASE = 'fairbench';
