// Databases as local processes in throwaway dirs on 127.0.0.1 (MariaDB also on a topology's host).
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
  start: async (kind: DatabaseKind, opts?: StartDatabaseOptions): Promise<LocalDatabaseServer> => {
    // Only MariaDB takes a topology's host yet (docs/several-machines.md): another server would listen on loopback unnoticed.
    if (opts?.host && kind !== 'mysql') throw new Error(`the local provider places only MySQL (MariaDB) on another host so far, not ${kind}`);
    return starters[kind](opts);
  },
} as const satisfies DatabaseProvider;
