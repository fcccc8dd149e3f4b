// Databases as local processes in throwaway dirs on 127.0.0.1.
import type { DatabaseKind, DatabaseProvider, StartDatabaseOptions } from '../types.ts';
import { startFerretDB } from './ferretdb.ts';
import { startMariaDB } from './mariadb.ts';
import { startPostgres } from './postgres.ts';
import type { LocalDatabaseServer } from './support.ts';

export type { LocalDatabaseServer } from './support.ts';

const starters: Record<DatabaseKind, (opts?: StartDatabaseOptions) => Promise<LocalDatabaseServer>> = {
  mysql: startMariaDB,
  postgres: startPostgres,
  mongo: startFerretDB,
};

export const localProvider = {
  name: 'local',
  start: (kind: DatabaseKind, opts?: StartDatabaseOptions): Promise<LocalDatabaseServer> => starters[kind](opts),
} as const satisfies DatabaseProvider;
