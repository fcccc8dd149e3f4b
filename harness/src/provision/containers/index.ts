// Databases as containers started by Testcontainers: MySQL-compatible (MariaDB built here /
// the official mysql image with a registry), PostgreSQL, MongoDB-compatible (FerretDB here /
// the official mongo image). Local images take the official images' interface (env and
// command line), so one description per kind serves both. Host networking on a port from
// the harness: the URL is always 127.0.0.1.
import { MongoClient } from 'mongodb';
import { createConnection, type RowDataPacket } from 'mysql2/promise';
import pg from 'pg';
import { startContainer, type RunningContainer } from '../../containers/container.ts';
import { imageRef } from '../../containers/images.ts';
import { databaseName, randomPassword, tcpAccepts, withPortRetry } from '../local/support.ts';
import type { DatabaseKind, DatabaseProvider, DatabaseServer, StartDatabaseOptions } from '../types.ts';

export interface ContainerDatabaseServer extends DatabaseServer {
  readonly provider: 'containers';
  readonly container: RunningContainer;
}

interface Recipe {
  /** Role in images/images.yaml. */
  readonly image: string;
  readonly env: (password: string, database: string) => Record<string, string>;
  readonly command: (port: number) => string[];
  readonly url: (password: string, port: number, database: string) => string;
  /** Connects with the URL and returns the engine as the server reports it; throws until it can. */
  readonly engine: (url: string) => Promise<{ name: string; version: string }>;
}

// The same server settings as the local provider's (pools of 100 twice plus headroom;
// durability is not under test), so that both runtimes measure the same thing.
const recipes: Record<DatabaseKind, Recipe> = {
  mysql: {
    image: 'mariadb',
    env: (password, database) => ({ MYSQL_ROOT_PASSWORD: password, MYSQL_DATABASE: database }),
    command: (port) => [
      `--port=${port}`,
      '--bind-address=127.0.0.1',
      '--skip-name-resolve',
      '--max-connections=1000',
      '--innodb-buffer-pool-size=512M',
      '--innodb-flush-log-at-trx-commit=2',
      '--character-set-server=utf8mb4',
    ],
    url: (password, port, database) => `mysql://root:${password}@127.0.0.1:${port}/${database}`,
    engine: async (url) => {
      const conn = await createConnection({ uri: url, connectTimeout: 2_000 });
      try {
        const [rows] = await conn.query<RowDataPacket[]>('SELECT VERSION() AS version');
        const version = String(rows[0]?.['version'] ?? '');
        return { name: /mariadb/i.test(version) ? 'MariaDB' : 'MySQL', version };
      } finally {
        await conn.end();
      }
    },
  },
  postgres: {
    image: 'postgresql',
    env: (password, database) => ({ POSTGRES_PASSWORD: password, POSTGRES_DB: database }),
    // pg_stat_statements: conformance counts an implementation's statements (N+1 checks), as for MySQL.
    command: (port) => [
      'postgres',
      '-p',
      String(port),
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'fsync=off',
      '-c',
      'max_connections=500',
      '-c',
      'shared_preload_libraries=pg_stat_statements',
    ],
    url: (password, port, database) => `postgres://postgres:${password}@127.0.0.1:${port}/${database}`,
    engine: async (url) => {
      const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
      await client.connect();
      try {
        const { rows } = await client.query<{ server_version: string }>('SHOW server_version');
        return { name: 'PostgreSQL', version: rows[0]?.server_version ?? '' };
      } finally {
        await client.end();
      }
    },
  },
  mongo: {
    image: 'ferretdb',
    env: () => ({}),
    command: (port) => ['mongod', '--port', String(port), '--bind_ip', '127.0.0.1'],
    // MongoDB databases come into being with their first write: nothing to create.
    url: (_password, port, database) => `mongodb://127.0.0.1:${port}/${database}`,
    engine: async (url) => {
      // The driver waits out its whole server-selection timeout on a refused port: check the port first.
      if (!(await tcpAccepts(Number(new URL(url).port)))) throw new Error('port not accepting connections yet');
      const client = new MongoClient(url, { serverSelectionTimeoutMS: 2_000, directConnection: true });
      try {
        await client.connect();
        const info = await client.db('admin').command({ buildInfo: 1 });
        const ferretdb = info['ferretdbVersion'];
        return typeof ferretdb === 'string'
          ? { name: 'FerretDB', version: `${ferretdb.replace(/^v/, '')} (SQLite backend)` }
          : { name: 'MongoDB', version: String(info['version']) };
      } finally {
        await client.close();
      }
    },
  },
};

async function start(kind: DatabaseKind, opts: StartDatabaseOptions = {}): Promise<ContainerDatabaseServer> {
  if (opts.host) throw new Error('the containers provider runs databases on this host only: a topology places them with the local provider');
  const recipe = recipes[kind];
  const database = databaseName(opts.database);
  const password = randomPassword();
  const image = imageRef(recipe.image);
  return withPortRetry(async (port) => {
    const url = recipe.url(password, port, database);
    let engine: { name: string; version: string } | undefined;
    const container = await startContainer({
      role: kind,
      image,
      env: recipe.env(password, database),
      command: recipe.command(port),
      probe: async () => {
        engine = await recipe.engine(url);
      },
    });
    return { kind, url, engine: engine!, provider: 'containers', container, stop: () => container.stop() };
  });
}

export const containersProvider = {
  name: 'containers',
  start,
} as const satisfies DatabaseProvider;
