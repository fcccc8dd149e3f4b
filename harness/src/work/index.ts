// A work reader for a database server of any kind: one open connection, read around each
// measured window (bench/src/execute/case-loop/). The counters: counters.ts.
import type { DatabaseServer } from '../provision/types.ts';
import { ferretdbWorkReader } from './ferretdb.ts';
import type { WorkReader } from './counters.ts';
import { mariadbWorkReader } from './mariadb.ts';
import { postgresWorkReader } from './postgres.ts';

export { workDifference, type WorkCounter, type WorkDifference, type WorkReader, type WorkScope, type WorkSnapshot } from './counters.ts';

/**
 * Whether an engine's reader gives a counter of that name (a model's typo would otherwise be
 * unavailable in every window). Names follow the readers: table_statistics.*, Com_*, Handler_*
 * (MariaDB); pg_stat_database's columns and statements[.<kind>][.rows] (PostgreSQL);
 * commands.<name>[.failed], commands.read and commands.write (FerretDB).
 */
export function isWorkCounter(engine: string, name: string): boolean {
  switch (engine) {
    case 'MariaDB':
      return /^(table_statistics\.(rows_read|rows_changed|rows_changed_x_indexes)|Com_[a-z_]+|Handler_[a-z_]+)$/.test(name);
    case 'PostgreSQL':
      return /^(xact_(commit|rollback)|tup_(returned|fetched|inserted|updated|deleted)|statements(\.(select|insert|update|delete|begin|commit|rollback|other))?(\.rows)?|statements\.evictions)$/.test(
        name,
      );
    case 'FerretDB':
      return /^commands\.[A-Za-z]+(\.failed)?$/.test(name);
    default:
      return false;
  }
}

/** A reader of the work done in `server`'s database (the one its URL names). */
export function openWorkReader(server: Pick<DatabaseServer, 'kind' | 'url' | 'engine'>): Promise<WorkReader> {
  switch (server.kind) {
    case 'mysql':
      return mariadbWorkReader(server.url, server.engine.name);
    case 'postgres':
      return postgresWorkReader(server.url, server.engine.name);
    case 'mongo':
      return ferretdbWorkReader(server.url, server.engine.name);
  }
}
