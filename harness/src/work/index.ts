// A work reader for a database server of any kind: one open connection, read around each
// measured window (bench/src/execute/case-loop/). The counters: counters.ts.
import type { DatabaseServer } from '../provision/types.ts';
import { ferretdbWorkReader } from './ferretdb.ts';
import type { WorkReader } from './counters.ts';
import { mariadbWorkReader } from './mariadb.ts';
import { postgresWorkReader } from './postgres.ts';

export { workDifference, type WorkCounter, type WorkDifference, type WorkReader, type WorkScope, type WorkSnapshot } from './counters.ts';

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
