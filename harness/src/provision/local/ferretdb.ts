// FerretDB (MongoDB wire protocol over SQLite) as the local MongoDB-compatible server:
// MongoDB itself cannot be installed on these machines (RECIPES.md).
import fs from 'node:fs';
import path from 'node:path';
import { MongoClient } from 'mongodb';
import { binDir } from '../../paths.ts';
import { startProcess } from '../../process.ts';
import type { StartDatabaseOptions } from '../types.ts';
import { databaseName, startInWorkDir, tcpAccepts, waitUntilReady, withPortRetry, type LocalDatabaseServer } from './support.ts';

const FERRETDB_BIN = path.join(binDir, 'ferretdb');

export async function startFerretDB(opts: StartDatabaseOptions = {}): Promise<LocalDatabaseServer> {
  const database = databaseName(opts.database);
  if (!fs.existsSync(FERRETDB_BIN)) throw new Error(`${FERRETDB_BIN} not found: run scripts/setup.sh to build FerretDB`);
  return startInWorkDir('FerretDB', undefined, async (dir, track) => {
    const dataDir = path.join(dir, 'data');
    await fs.promises.mkdir(dataDir);
    const launch = async (port: number) => {
      const server = startProcess({
        name: 'ferretdb',
        command: FERRETDB_BIN,
        args: [
          '--handler=sqlite',
          `--sqlite-url=file:${dataDir}/`,
          `--state-dir=${dir}`,
          `--listen-addr=127.0.0.1:${port}`,
          '--debug-addr=-',
          '--telemetry=disable',
          '--log-level=error',
        ],
        cwd: dir,
        logFile: path.join(dir, 'server.log'),
        ownedDir: dir,
      });
      track(server);
      // MongoDB databases (SQLite files here) come into being with their first write: nothing to create.
      const url = `mongodb://127.0.0.1:${port}/${database}`;
      const version = await waitUntilReady('FerretDB', server, () => pingAndVersion(port, url));
      return { server, url, version, port };
    };
    const { server, url, version, port } = await withPortRetry(launch);
    return { kind: 'mongo', url, engine: { name: 'FerretDB', version }, process: server, relaunch: async () => (await launch(port)).server };
  });
}

/** e.g. '1.24.0 (SQLite backend)': FerretDB's own version, not the MongoDB version it emulates. */
async function pingAndVersion(port: number, url: string): Promise<string> {
  // The driver waits out its whole server-selection timeout on a refused port: check the port first.
  if (!(await tcpAccepts(port))) throw new Error(`port ${port} not accepting connections yet`);
  const client = new MongoClient(url, { serverSelectionTimeoutMS: 2_000, directConnection: true });
  try {
    await client.connect();
    const admin = client.db('admin');
    await admin.command({ ping: 1 });
    const info = await admin.command({ buildInfo: 1 });
    const ferretdb = typeof info['ferretdbVersion'] === 'string' ? info['ferretdbVersion'].replace(/^v/, '') : 'unknown';
    return `${ferretdb} (SQLite backend)`;
  } finally {
    await client.close();
  }
}
