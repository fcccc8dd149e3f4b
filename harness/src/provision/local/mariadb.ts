// MariaDB (the MySQL-wire server here) as a local process in a throwaway dir.
import path from 'node:path';
import { createConnection, type Connection, type RowDataPacket } from 'mysql2/promise';
import { runCommand, startProcess } from '../../process.ts';
import type { StartDatabaseOptions } from '../types.ts';
import {
  databaseName,
  findExecutable,
  startInWorkDir,
  randomPassword,
  serverUser,
  type ServerUser,
  waitUntilReady,
  withPortRetry,
  type LocalDatabaseServer,
} from './support.ts';
import { copyFromTemplate } from './templates.ts';

export async function startMariaDB(opts: StartDatabaseOptions = {}): Promise<LocalDatabaseServer> {
  const database = databaseName(opts.database);
  const mariadbd = findExecutable('mariadbd');
  const owner = serverUser('mysql');
  if (opts.host?.via === 'ssh') throw new Error('the local provider starts MariaDB here or in a network namespace of this machine, not over SSH');
  const address = opts.host?.address ?? '127.0.0.1';
  const clients = opts.host ? [...new Set(opts.clients ?? [])] : ['127.0.0.1'];
  return startInWorkDir('MariaDB', owner, async (dir, track) => {
    const dataDir = path.join(dir, 'data');
    await initDataDir(mariadbd, dataDir, owner);
    const socket = path.join(dir, 'mysqld.sock');
    const launch = async (port: number) => {
      const server = startProcess({
        name: 'mariadb',
        command: mariadbd,
        args: serverArgs({ dataDir, socket, port, dir, user: owner?.user, address }),
        ...(opts.host ? { host: opts.host } : {}),
        logFile: path.join(dir, 'server.log'),
        ownedDir: dir,
      });
      track(server);
      await waitUntilReady('MariaDB', server, () => connectOverSocket(socket).then((c) => c.end()));
      return { server, port };
    };
    const { server, port } = await withPortRetry(launch);

    const password = randomPassword();
    const version = await configure(socket, database, password, clients).catch(async (err: unknown) => {
      throw new Error(`MariaDB setup failed: ${String(err)}\n${await server.tail(20)}`);
    });
    return {
      kind: 'mysql',
      url: `mysql://root:${password}@${address}:${port}/${database}`,
      engine: { name: 'MariaDB', version },
      process: server,
      relaunch: async () => (await launch(port)).server,
    };
  });
}

function serverArgs(o: { dataDir: string; socket: string; port: number; dir: string; user: string | undefined; address: string }): string[] {
  return [
    '--no-defaults', // not /etc/mysql's config, nor its port 3306
    ...(o.user ? [`--user=${o.user}`] : []),
    `--datadir=${o.dataDir}`,
    `--socket=${o.socket}`,
    `--pid-file=${path.join(o.dir, 'mysqld.pid')}`,
    `--tmpdir=${o.dir}`, // not $TMPDIR, which the server's user may not be able to write
    `--bind-address=${o.address}`,
    `--port=${o.port}`,
    '--skip-name-resolve',
    // Pools of 100 from the implementation and from the database-alone client at once, plus headroom.
    '--max-connections=1000',
    '--innodb-buffer-pool-size=512M',
    // A throwaway benchmark server: flush the redo log once a second rather than per commit.
    // Every implementation runs against the same setting, so the comparison stays fair.
    '--innodb-flush-log-at-trx-commit=2',
    // MariaDB 10.11 still defaults to latin1; MySQL 8 (the containers runtime) uses utf8mb4.
    '--character-set-server=utf8mb4',
    // Rows read and changed per schema (INFORMATION_SCHEMA.TABLE_STATISTICS): each
    // implementation's work under load, read from its own database (harness/src/work/).
    '--userstat=1',
  ];
}

const INSTALL_DB_ARGS = [
  '--no-defaults',
  '--auth-root-authentication-method=normal', // root@localhost without password: reachable only through our private socket
  '--skip-test-db',
];

let serverVersion: Promise<string> | undefined;

async function initDataDir(mariadbd: string, dataDir: string, owner: ServerUser | undefined): Promise<void> {
  serverVersion ??= runCommand(mariadbd, ['--version']).then((r) => r.stdout.trim());
  await copyFromTemplate(
    {
      name: 'mariadb',
      serverVersion: await serverVersion,
      owner,
      initArgs: INSTALL_DB_ARGS,
      init: async (templateDataDir, workDir) => {
        const user = owner ? [`--user=${owner.user}`] : [];
        await runCommand(findExecutable('mariadb-install-db'), [...INSTALL_DB_ARGS, ...user, `--datadir=${templateDataDir}`], {
          cwd: workDir,
          env: { ...process.env, TMPDIR: workDir }, // the bootstrap server's temp files, as --tmpdir does for the server
        });
      },
    },
    dataDir,
  );
}

function connectOverSocket(socketPath: string): Promise<Connection> {
  return createConnection({ socketPath, user: 'root', connectTimeout: 2_000 });
}

/** Opens root@<each client address> with the password, creates the database, returns the server's version. */
async function configure(socket: string, database: string, password: string, clients: readonly string[]): Promise<string> {
  const conn = await connectOverSocket(socket);
  try {
    // install-db also makes password-less root@<hostname> and root@::1: unreachable here
    // (127.0.0.1 only, no name resolution), but no network account should lack a password.
    const [extra] = await conn.query<RowDataPacket[]>(`SELECT Host FROM mysql.user WHERE User = 'root' AND Host NOT IN ('localhost', '127.0.0.1')`);
    for (const { Host } of extra) await conn.query(`DROP USER 'root'@?`, [Host]);
    for (const client of clients) {
      await conn.query(`CREATE USER IF NOT EXISTS 'root'@?`, [client]);
      await conn.query(`ALTER USER 'root'@? IDENTIFIED BY ?`, [client, password]);
      await conn.query(`GRANT ALL PRIVILEGES ON *.* TO 'root'@? WITH GRANT OPTION`, [client]);
    }
    await conn.query(`CREATE DATABASE \`${database}\``);
    const [rows] = await conn.query<RowDataPacket[]>('SELECT VERSION() AS version');
    return String(rows[0]?.['version'] ?? '');
  } finally {
    await conn.end();
  }
}
