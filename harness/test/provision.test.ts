// Real servers through the local provider: start, use with the real driver, stop, and
// check that nothing is left (port, data dir, processes).
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { after, describe, test, type TestContext } from 'node:test';
import { MongoClient } from 'mongodb';
import { createConnection, type RowDataPacket } from 'mysql2/promise';
import pg from 'pg';
import { runCleanup } from '../src/cleanup.ts';
import { chooseProvider } from '../src/provision/index.ts';
import { localProvider, type LocalDatabaseServer } from '../src/provision/local/index.ts';
import type { DatabaseKind } from '../src/provision/types.ts';

const execFileAsync = promisify(execFile);

// Whatever a failed assertion left running.
after(() => runCleanup());

/** Write then read through the server's own driver, using nothing but its URL. */
const writeAndRead: Record<DatabaseKind, (url: string) => Promise<string>> = {
  async mysql(url) {
    const conn = await createConnection(url);
    try {
      await conn.query('CREATE TABLE greeting (id INT PRIMARY KEY, text VARCHAR(50) NOT NULL)');
      await conn.query('INSERT INTO greeting VALUES (?, ?)', [1, 'héllo ✓']);
      const [rows] = await conn.query<RowDataPacket[]>('SELECT text FROM greeting WHERE id = 1');
      return String(rows[0]?.['text']);
    } finally {
      await conn.end();
    }
  },
  async postgres(url) {
    const client = new pg.Client(url);
    await client.connect();
    try {
      await client.query('CREATE TABLE greeting (id INT PRIMARY KEY, text TEXT NOT NULL)');
      await client.query('INSERT INTO greeting VALUES ($1, $2)', [1, 'héllo ✓']);
      const { rows } = await client.query<{ text: string }>('SELECT text FROM greeting WHERE id = 1');
      return String(rows[0]?.text);
    } finally {
      await client.end();
    }
  },
  async mongo(url) {
    const client = await MongoClient.connect(url, { serverSelectionTimeoutMS: 5_000 });
    try {
      const greetings = client.db().collection<{ _id: number; text: string }>('greeting');
      await greetings.insertOne({ _id: 1, text: 'héllo ✓' });
      return String((await greetings.findOne({ _id: 1 }))?.text);
    } finally {
      await client.close();
    }
  },
};

/** The same URL with a wrong password must be refused: the password is really required. */
const refusesWrongPassword: Partial<Record<DatabaseKind, (url: string) => Promise<unknown>>> = {
  mysql: (url) => createConnection(withPassword(url, 'wrong')).then((c) => c.end()),
  postgres: async (url) => {
    const client = new pg.Client(withPassword(url, 'wrong'));
    await client.connect();
    await client.end();
  },
};

function withPassword(url: string, password: string): string {
  const u = new URL(url);
  u.password = password;
  return u.href;
}

function portAccepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Independent of process.ts: what `ps` says is in the group (zombies excepted). */
function groupMembers(pgid: number): string[] {
  const ps = execFileSync('ps', ['-eo', 'pgid=,pid=,stat=,comm='], { encoding: 'utf8' });
  return ps
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter(([group, , stat]) => Number(group) === pgid && !stat?.startsWith('Z'))
    .map((fields) => fields.join(' '));
}

async function checkLifecycle(t: TestContext, kind: DatabaseKind, expectedEngine: RegExp): Promise<void> {
  const started = performance.now();
  const server: LocalDatabaseServer = await localProvider.start(kind);
  const startMs = performance.now() - started;

  const url = new URL(server.url);
  assert.equal(url.hostname, '127.0.0.1');
  assert.equal(url.pathname, '/fairbench');
  assert.equal(server.kind, kind);
  assert.equal(server.provider, 'local');
  assert.match(server.engine.name, expectedEngine);
  assert.match(server.engine.version, /\d+\.\d+/);
  assert.ok(fs.existsSync(server.dir));
  const port = Number(url.port);

  assert.equal(await writeAndRead[kind](server.url), 'héllo ✓');
  const wrongPassword = refusesWrongPassword[kind];
  if (wrongPassword) await assert.rejects(wrongPassword(server.url), /password|denied/i);

  const stopping = performance.now();
  await server.stop();
  const stopMs = performance.now() - stopping;
  t.diagnostic(`${server.engine.name} ${server.engine.version}: ready in ${startMs.toFixed(0)} ms, stopped in ${stopMs.toFixed(0)} ms`);

  assert.equal(await portAccepts(port), false, 'the port is closed');
  assert.equal(fs.existsSync(server.dir), false, 'the data dir is removed');
  assert.deepEqual(groupMembers(server.process.pid), [], 'no process of the group is left');
  assert.equal(server.process.alive(), false);
  await server.stop(); // idempotent
}

describe('local provider', { concurrency: true }, () => {
  test('mysql: MariaDB', (t) => checkLifecycle(t, 'mysql', /^MariaDB$/));
  test('postgres: PostgreSQL', (t) => checkLifecycle(t, 'postgres', /^PostgreSQL$/));
  test('mongo: FerretDB', (t) => checkLifecycle(t, 'mongo', /^FerretDB$/));

  test('refuses a database name that is not an identifier, before starting anything', async () => {
    await assert.rejects(localProvider.start('mysql', { database: 'x`; DROP' }), /invalid database name/);
  });
});

// CI may hand a root harness a private TMPDIR that the servers' users (mysql, postgres)
// cannot enter; MariaDB then aborts on "Permission denied". Built from scratch (no cached
// template) in a child process, so that the env change stays out of this one.
test('a private TMPDIR does not stop the servers from initialising and starting', async (t) => {
  const privateParent = fs.mkdtempSync(path.join(os.tmpdir(), 'fairbench-private-'));
  fs.chmodSync(privateParent, 0o700);
  const privateTmp = path.join(privateParent, 'tmp');
  fs.mkdirSync(privateTmp, { mode: 0o700 });
  t.after(() => fs.rmSync(privateParent, { recursive: true, force: true }));
  const script = `
    import { localProvider } from ${JSON.stringify(new URL('../src/provision/local/index.ts', import.meta.url).href)};
    for (const kind of ['mysql', 'postgres']) {
      const server = await localProvider.start(kind);
      if (server.dir.startsWith(${JSON.stringify(privateParent)}) && process.getuid() === 0) throw new Error('server dir inside the private TMPDIR');
      await server.stop();
      console.log(kind, 'ok');
    }`;
  const { stdout } = await execFileAsync(process.execPath, ['--input-type=module', '-e', script], {
    env: { ...process.env, TMPDIR: privateTmp, FAIRBENCH_TEMPLATES_DIR: path.join(privateParent, 'templates') },
    timeout: 120_000,
  });
  assert.equal(stdout.trim(), 'mysql ok\npostgres ok');
});

describe('chooseProvider', () => {
  const saved = process.env.FAIRBENCH_RUNTIME;
  after(() => {
    if (saved === undefined) delete process.env.FAIRBENCH_RUNTIME;
    else process.env.FAIRBENCH_RUNTIME = saved;
  });

  test('local by default and on request; containers not yet', () => {
    delete process.env.FAIRBENCH_RUNTIME;
    assert.equal(chooseProvider().name, 'local');
    process.env.FAIRBENCH_RUNTIME = 'local';
    assert.equal(chooseProvider().name, 'local');
    process.env.FAIRBENCH_RUNTIME = 'containers';
    assert.throws(() => chooseProvider(), /containers runtime not implemented yet/);
    process.env.FAIRBENCH_RUNTIME = 'docker';
    assert.throws(() => chooseProvider(), /unknown FAIRBENCH_RUNTIME/);
  });
});
