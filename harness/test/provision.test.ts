// Real servers through the local provider: start, use with the real driver (and a sibling
// database on it), stop, and check that nothing is left (port, data dir, processes).
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { after, describe, test, type TestContext } from 'node:test';
import { onCleanup, runCleanup } from '../src/cleanup.ts';
import { autoRuntime, chooseProvider } from '../src/provision/index.ts';
import { localProvider, type LocalDatabaseServer } from '../src/provision/local/index.ts';
import { siblingDatabase } from '../src/provision/sibling.ts';
import type { DatabaseKind } from '../src/provision/types.ts';
import { UsageError } from '../src/cli/usage.ts';
import { checkUsableAndGuarded, portAccepts } from './support/databases.ts';

const execFileAsync = promisify(execFile);

// Whatever a failed assertion left running.
after(() => runCleanup());

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

  await checkUsableAndGuarded(kind, server.url);
  // A sibling database (the benchmark's own database per implementation): the same write
  // again succeeds there, so it is another database (the table or _id 1 exists in the first).
  const sibling = await siblingDatabase(server, 'fairbench_2');
  assert.equal(new URL(sibling.url).pathname, '/fairbench_2');
  assert.equal(new URL(sibling.url).port, url.port);
  await checkUsableAndGuarded(kind, sibling.url);
  await assert.rejects(siblingDatabase(server, 'fairbench'), /the server's own database/);
  await assert.rejects(siblingDatabase(server, 'x; DROP'), /not a plain database name/);

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
  // Through the harness's cleanup, so that a Ctrl-C during the test removes it too.
  const unregister = onCleanup(`private TMPDIR ${privateParent}`, () => fs.promises.rm(privateParent, { recursive: true, force: true }));
  t.after(async () => {
    unregister();
    fs.rmSync(privateParent, { recursive: true, force: true });
  });
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

  test('FAIRBENCH_RUNTIME decides; without it, automatic unless the caller defaults to local', () => {
    process.env.FAIRBENCH_RUNTIME = 'local';
    assert.equal(chooseProvider({ quiet: true }).name, 'local');
    process.env.FAIRBENCH_RUNTIME = 'containers';
    assert.equal(chooseProvider({ quiet: true }).name, 'containers');
    assert.equal(chooseProvider({ quiet: true, default: 'local' }).name, 'containers', 'the variable beats the default');
    process.env.FAIRBENCH_RUNTIME = 'docker';
    assert.throws(
      () => chooseProvider(),
      (e: Error) => e instanceof UsageError && /RUNTIME \(FAIRBENCH_RUNTIME\) must be one of local, containers, got 'docker'/.test(e.message),
    );
    delete process.env.FAIRBENCH_RUNTIME;
    assert.equal(chooseProvider({ quiet: true, default: 'local' }).name, 'local');
    assert.equal(chooseProvider({ quiet: true }).name, autoRuntime());
  });

  // CI's sandbox may have no working container engine: the automatic choice must then be
  // local, quickly, and say why, instead of failing or hanging.
  test('without a container engine the automatic choice falls back to local, within seconds, saying why', async () => {
    const script = `
      import { chooseRuntime } from ${JSON.stringify(new URL('../src/provision/index.ts', import.meta.url).href)};
      const c = chooseRuntime({ quiet: true });
      console.log(JSON.stringify({ name: c.provider.name, reason: c.reason }));`;
    const started = performance.now();
    const { stdout } = await execFileAsync(process.execPath, ['--input-type=module', '-e', script], {
      env: { ...process.env, FAIRBENCH_RUNTIME: '', PATH: path.dirname(process.execPath), DOCKER_HOST: 'unix:///nonexistent.sock' },
      timeout: 30_000,
    });
    const choice = JSON.parse(stdout) as { name: string; reason: string };
    assert.equal(choice.name, 'local');
    assert.match(choice.reason, /containers cannot run here: .*podman is not installed/);
    assert.ok(performance.now() - started < 20_000, 'the probe is bounded');
  });
});
