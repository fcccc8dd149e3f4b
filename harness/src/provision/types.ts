// The seam between the harness and whatever runs the databases: local processes
// today, Testcontainers next. Callers only ever see these types.

export type DatabaseKind = 'mysql' | 'postgres' | 'mongo';
export type RuntimeProviderName = 'local' | 'containers';

export interface DatabaseServer {
  readonly kind: DatabaseKind;
  /**
   * Connection URL with credentials and database name, always on 127.0.0.1:
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
}

export interface DatabaseProvider {
  readonly name: RuntimeProviderName;
  /** Starts a fresh, empty server with a random password; it is stopped by the process-wide cleanup if the caller does not. */
  start(kind: DatabaseKind, opts?: StartDatabaseOptions): Promise<DatabaseServer>;
}

export const DEFAULT_DATABASE = 'fairbench';
