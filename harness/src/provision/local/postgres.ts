// PostgreSQL as a local process in a throwaway dir: the `postgres` binary itself in the
// foreground (no pg_ctl), so that it is one managed process group like the others.
import fs from 'node:fs';
import path from 'node:path';
import { Client } from 'pg';
import { runCommand, startProcess } from '../../process.ts';
import type { StartDatabaseOptions } from '../types.ts';
import {
  databaseName,
  startInWorkDir,
  randomPassword,
  serverUser,
  type ServerUser,
  waitUntilReady,
  withPortRetry,
  type LocalDatabaseServer,
} from './support.ts';
import { copyFromTemplate } from './templates.ts';

const MIN_MAJOR_VERSION = 15;

export async function startPostgres(opts: StartDatabaseOptions = {}): Promise<LocalDatabaseServer> {
  const database = databaseName(opts.database);
  const bin = postgresBinDir();
  const owner = serverUser('postgres'); // initdb and postgres refuse to run as root
  return startInWorkDir('PostgreSQL', owner, async (dir, track) => {
    const dataDir = path.join(dir, 'data');
    await initDataDir(bin, dataDir, owner);

    const launch = async (port: number) => {
      const server = startProcess({
        name: 'postgres',
        command: path.join(bin, 'postgres'),
        args: [
          '-D',
          dataDir,
          '-p',
          String(port),
          '-k',
          dir, // the unix socket stays in our private dir, not /var/run/postgresql
          '-c',
          'listen_addresses=127.0.0.1',
          // A throwaway benchmark server: durability is not under test; the same for every implementation.
          '-c',
          'fsync=off',
          // Pools of 100 from the implementation and from the database-alone client at once, plus headroom.
          '-c',
          'max_connections=500',
          // Counts every statement (conformance's N+1 checks read it); loaded at start or not at all.
          '-c',
          'shared_preload_libraries=pg_stat_statements',
        ],
        cwd: dir, // the server's user may not be able to enter ours
        logFile: path.join(dir, 'server.log'),
        stopSignal: 'SIGINT', // "fast" shutdown: roll back open transactions and exit now
        ownedDir: dir,
        ...(owner ? { user: owner.user } : {}),
      });
      track(server);
      await waitUntilReady('PostgreSQL', server, () => query({ socketDir: dir, port }, 'postgres', 'SELECT 1'));
      return { server, port };
    };
    const { server, port } = await withPortRetry(launch);

    const password = randomPassword();
    const version = await configure({ socketDir: dir, port }, password, database).catch(async (err: unknown) => {
      throw new Error(`PostgreSQL setup failed: ${String(err)}\n${await server.tail(20)}`);
    });
    return {
      kind: 'postgres',
      url: `postgres://postgres:${password}@127.0.0.1:${port}/${database}`,
      engine: { name: 'PostgreSQL', version },
      process: server,
      relaunch: async () => (await launch(port)).server,
    };
  });
}

/** Debian/Ubuntu keep each major version under /usr/lib/postgresql/<major>/bin, off PATH: take the newest. */
function postgresBinDir(): string {
  const root = '/usr/lib/postgresql';
  const majors = (fs.existsSync(root) ? fs.readdirSync(root) : [])
    .map(Number)
    .filter((major) => major >= MIN_MAJOR_VERSION && fs.existsSync(path.join(root, String(major), 'bin', 'postgres')))
    .sort((a, b) => b - a);
  if (majors[0] === undefined) throw new Error(`no PostgreSQL ${MIN_MAJOR_VERSION}+ under ${root}/*/bin (apt-get install postgresql)`);
  return path.join(root, String(majors[0]), 'bin');
}

// The template's own superuser password is random and thrown away: each server gets its
// password over the unix socket (trusted, but in a dir only postgres and root can enter),
// while TCP connections need the password (scram-sha-256).
const INITDB_ARGS = ['-U', 'postgres', '--auth-local=trust', '--auth-host=scram-sha-256', '-E', 'UTF8', '--no-locale', '--no-sync'];

let serverVersion: Promise<string> | undefined;

async function initDataDir(bin: string, dataDir: string, owner: ServerUser | undefined): Promise<void> {
  serverVersion ??= runCommand(path.join(bin, 'postgres'), ['--version']).then((r) => r.stdout.trim());
  await copyFromTemplate(
    {
      name: 'postgres',
      serverVersion: await serverVersion,
      owner,
      initArgs: INITDB_ARGS,
      init: async (templateDataDir, workDir) => {
        // initdb wants a superuser password when host auth needs one; it goes through a file, never argv.
        const pwfile = path.join(workDir, 'pwfile');
        await fs.promises.writeFile(pwfile, `${randomPassword()}\n`, { mode: 0o600 });
        if (owner) await fs.promises.chown(pwfile, owner.uid, owner.gid);
        await runCommand(path.join(bin, 'initdb'), ['-D', templateDataDir, ...INITDB_ARGS, `--pwfile=${pwfile}`], {
          cwd: workDir,
          ...(owner ? { user: owner.user } : {}),
        });
      },
    },
    dataDir,
  );
}

/** Over the unix socket, where the template trusts the superuser. */
async function query(at: { socketDir: string; port: number }, database: string, sql: string): Promise<unknown[]> {
  const client = new Client({ host: at.socketDir, port: at.port, user: 'postgres', database, connectionTimeoutMillis: 2_000 });
  await client.connect();
  try {
    return (await client.query(sql)).rows;
  } finally {
    await client.end();
  }
}

/** Sets the password, creates the database and returns the server's version. */
async function configure(at: { socketDir: string; port: number }, password: string, database: string): Promise<string> {
  // ALTER ROLE takes no bind parameters; the password is base64url, so it is safe in quotes.
  await query(at, 'postgres', `ALTER ROLE postgres PASSWORD '${password}'`);
  await query(at, 'postgres', `CREATE DATABASE "${database}"`);
  const [row] = (await query(at, database, 'SHOW server_version')) as { server_version: string }[];
  return row?.server_version ?? '';
}
