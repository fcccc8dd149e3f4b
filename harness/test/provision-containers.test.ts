// Real servers through the containers provider (Testcontainers on Podman here, Docker on
// GitHub): the same checks as the local provider's, plus that the container is gone after
// stop. Skipped, loudly, where no container runtime works.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { after, describe, test, type TestContext } from 'node:test';
import { runCleanup } from '../src/cleanup.ts';
import { probeEngine } from '../src/containers/engine.ts';
import { chooseRuntime } from '../src/provision/index.ts';
import { containersProvider } from '../src/provision/containers/index.ts';
import type { DatabaseKind } from '../src/provision/types.ts';
import { checkUsableAndGuarded, portAccepts } from './support/databases.ts';

after(() => runCleanup());

/** Null when these tests can run here, else why not (printed, not hidden). */
function unavailable(): string | null {
  if (process.env['FAIRBENCH_RUNTIME'] === 'containers') return null;
  const choice = chooseRuntime({ quiet: true });
  return choice.provider.name === 'containers' ? null : choice.reason;
}

const skip = unavailable();
if (skip) console.log(`\x1b[33m!! containers provider tests SKIPPED: ${skip}\x1b[0m`);

/** Whether the engine still knows the container (running or not). */
function containerExists(id: string): boolean {
  const engine = probeEngine();
  const cli = engine.ok ? engine.kind : 'podman';
  const out = execFileSync(cli, ['ps', '-a', '-q', '--no-trunc', '--filter', `id=${id}`], { encoding: 'utf8', timeout: 15_000 });
  return out.trim() !== '';
}

async function checkLifecycle(t: TestContext, kind: DatabaseKind, expectedEngine: RegExp): Promise<void> {
  const started = performance.now();
  const server = await containersProvider.start(kind);
  const startMs = performance.now() - started;

  const url = new URL(server.url);
  assert.equal(url.hostname, '127.0.0.1', 'host networking: traffic stays on the loopback');
  assert.equal(url.pathname, '/fairbench');
  assert.equal(server.kind, kind);
  assert.equal(server.provider, 'containers');
  assert.match(server.engine.name, expectedEngine);
  assert.match(server.engine.version, /\d+\.\d+/);
  assert.ok(containerExists(server.container.id));
  const port = Number(url.port);

  await checkUsableAndGuarded(kind, server.url);

  const stopping = performance.now();
  await server.stop();
  const stopMs = performance.now() - stopping;
  t.diagnostic(
    `${server.engine.name} ${server.engine.version} in ${server.container.image}: ready in ${startMs.toFixed(0)} ms, stopped in ${stopMs.toFixed(0)} ms`,
  );

  assert.equal(await portAccepts(port), false, 'the port is closed');
  assert.equal(containerExists(server.container.id), false, 'the container is removed');
  assert.equal(server.container.alive(), false);
  await server.stop(); // idempotent
}

describe('containers provider', { skip: skip ?? false, concurrency: true }, () => {
  test('mysql: MariaDB (MySQL with official images)', (t) => checkLifecycle(t, 'mysql', /^(MariaDB|MySQL)$/));
  test('postgres: PostgreSQL', (t) => checkLifecycle(t, 'postgres', /^PostgreSQL$/));
  test('mongo: FerretDB (MongoDB with official images)', (t) => checkLifecycle(t, 'mongo', /^(FerretDB|MongoDB)$/));

  test('refuses a database name that is not an identifier, before starting anything', async () => {
    await assert.rejects(containersProvider.start('mysql', { database: 'x`; DROP' }), /invalid database name/);
  });
});
