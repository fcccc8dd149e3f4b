// Managed processes and the process-wide cleanup, exercised with real processes.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';

// Pid records go to a private state dir: set before process.ts is loaded (it reads it once).
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'fairbench-process-test-'));
process.env.FAIRBENCH_STATE_DIR = path.join(scratch, 'state');
const { startProcess, reapStale } = await import('../src/process.ts');

const processModule = new URL('../src/process.ts', import.meta.url).href;
const cleanupModule = new URL('../src/cleanup.ts', import.meta.url).href;
const pidsDir = path.join(scratch, 'state', 'pids');

after(() => fs.rmSync(scratch, { recursive: true, force: true }));

function pidAlive(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

async function waitFor(what: string, check: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

interface Script {
  child: ReturnType<typeof spawn>;
  /** The first line the script prints on stdout. */
  firstLine: Promise<string>;
  exit: Promise<number | null>;
  stderr(): string;
}

/** Runs an ES module snippet in a fresh node. */
function runScript(code: string): Script {
  const child = spawn(process.execPath, ['--input-type=module', '-e', code], {
    env: process.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const firstLine = new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const newline = out.indexOf('\n');
      if (newline >= 0) resolve(out.slice(0, newline));
    });
    child.once('exit', () => reject(new Error(`script exited before printing a line: ${out}`)));
  });
  const exit = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  return { child, firstLine, exit, stderr: () => stderr };
}

describe('startProcess', () => {
  test('stop() kills the whole group, grandchildren included', async () => {
    const grandchildPidFile = path.join(scratch, 'grandchild.pid');
    const proc = startProcess({
      name: 'family',
      command: 'sh',
      args: ['-c', `sleep 300 & echo $! > ${grandchildPidFile}; sleep 300`],
      logFile: path.join(scratch, 'family.log'),
    });
    await waitFor('the grandchild pid', () => fs.existsSync(grandchildPidFile) && fs.readFileSync(grandchildPidFile, 'utf8').endsWith('\n'));
    const grandchild = Number(fs.readFileSync(grandchildPidFile, 'utf8'));
    assert.ok(pidAlive(proc.pid) && pidAlive(grandchild));
    assert.ok(proc.alive());
    assert.ok(fs.existsSync(path.join(pidsDir, `${proc.pid}.json`)), 'a pid record is written');

    await proc.stop();
    assert.equal(pidAlive(proc.pid), false);
    assert.equal(pidAlive(grandchild), false, 'the grandchild is gone too');
    assert.equal(proc.alive(), false);
    assert.equal(fs.existsSync(path.join(pidsDir, `${proc.pid}.json`)), false, 'the pid record is removed');
  });

  test('falls back to SIGKILL when SIGTERM is ignored', async () => {
    const proc = startProcess({
      name: 'stubborn',
      command: process.execPath,
      args: ['-e', "process.on('SIGTERM', () => console.log('ignored SIGTERM')); console.log('ready'); setInterval(() => {}, 1000)"],
      logFile: path.join(scratch, 'stubborn.log'),
    });
    await waitFor('the SIGTERM handler', () => fs.readFileSync(proc.logFile, 'utf8').includes('ready'));
    const started = performance.now();
    await proc.stop({ timeoutMs: 300 });
    const took = performance.now() - started;
    assert.equal(await proc.exited, null, 'killed by a signal, not exited');
    assert.ok(took >= 300, `waited for the timeout before SIGKILL (${took.toFixed(0)} ms)`);
    assert.match(await proc.tail(), /ignored SIGTERM/);
    assert.equal(proc.alive(), false);
  });

  test('stopSignal is sent first, and a one-shot command needs no stop()', async () => {
    const proc = startProcess({
      name: 'polite',
      command: process.execPath,
      args: ['-e', "process.on('SIGINT', () => { console.log('got SIGINT'); process.exit(0); }); console.log('ready'); setInterval(() => {}, 1000)"],
      logFile: path.join(scratch, 'polite.log'),
      stopSignal: 'SIGINT',
    });
    await waitFor('the SIGINT handler', () => fs.readFileSync(proc.logFile, 'utf8').includes('ready'));
    await proc.stop();
    assert.equal(await proc.exited, 0);
    assert.match(await proc.tail(1), /^got SIGINT$/);

    const oneShot = startProcess({ name: 'true', command: 'true', args: [], logFile: path.join(scratch, 'true.log') });
    assert.equal(await oneShot.exited, 0);
    assert.equal(fs.existsSync(path.join(pidsDir, `${oneShot.pid}.json`)), false, 'its record is dropped on exit');
  });

  test('a command that cannot be started throws at once', () => {
    assert.throws(
      () => startProcess({ name: 'missing', command: '/nonexistent/binary', args: [], logFile: path.join(scratch, 'missing.log') }),
      /cannot start \/nonexistent\/binary/,
    );
  });
});

describe('reapStale', () => {
  test('kills the groups of a harness that died without cleanup, and only those', async () => {
    const ownedDir = fs.mkdtempSync(path.join(scratch, 'owned-'));
    // A "harness" that starts a server and is then SIGKILLed: no cleanup, no exit handlers.
    const harness = runScript(`
      import { startProcess } from ${JSON.stringify(processModule)};
      const p = startProcess({ name: 'orphan', command: 'sleep', args: ['300'],
        logFile: ${JSON.stringify(path.join(scratch, 'orphan.log'))}, ownedDir: ${JSON.stringify(ownedDir)} });
      console.log(p.pid);
      setInterval(() => {}, 1000);
    `);
    const orphan = Number(await harness.firstLine);
    harness.child.kill('SIGKILL');
    await harness.exit;
    assert.ok(pidAlive(orphan), 'the orphan outlives its harness');

    // A process of this (live) harness must survive the reaping.
    const ours = startProcess({ name: 'ours', command: 'sleep', args: ['300'], logFile: path.join(scratch, 'ours.log') });
    try {
      const killed = await reapStale();
      assert.equal(killed.length, 1, `killed: ${killed.join('; ')}`);
      assert.match(killed[0] ?? '', new RegExp(`orphan \\(pgid ${orphan},`));
      assert.equal(pidAlive(orphan), false);
      assert.equal(fs.existsSync(ownedDir), false, 'its owned dir is removed');
      assert.equal(fs.existsSync(path.join(pidsDir, `${orphan}.json`)), false);
      assert.ok(ours.alive(), 'a live harness keeps its processes');
      assert.deepEqual(await reapStale(), [], 'nothing left to reap');
    } finally {
      await ours.stop();
    }
  });
});

describe('cleanup', () => {
  // The cleanup registry is process-wide and runs once, so each case runs in its own node.
  const script = (marker: string, body: string): string => `
    import fs from 'node:fs';
    import { installCrashHandlers, onCleanup, runCleanup } from ${JSON.stringify(cleanupModule)};
    import { startProcess } from ${JSON.stringify(processModule)};
    const marker = ${JSON.stringify(marker)};
    installCrashHandlers(); // signal handlers come with the first startProcess()
    onCleanup('first', async () => fs.appendFileSync(marker, 'first;'));
    onCleanup('failing', async () => { throw new Error('this one fails'); });
    const unregistered = onCleanup('unregistered', async () => fs.appendFileSync(marker, 'unregistered;'));
    unregistered();
    onCleanup('second', async () => { await new Promise((r) => setTimeout(r, 50)); fs.appendFileSync(marker, 'second;'); });
    const server = startProcess({ name: 'server', command: 'sleep', args: ['300'], logFile: marker + '.log' });
    ${body}
  `;

  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
    ['SIGHUP', 129],
  ] as const) {
    test(`${signal} runs every cleanup once, newest first, then exits ${code}`, async () => {
      const marker = path.join(scratch, `cleanup-${signal}`);
      const run = runScript(script(marker, `console.log(server.pid); setInterval(() => {}, 1000);`));
      const serverPid = Number(await run.firstLine);
      run.child.kill(signal);
      assert.equal(await run.exit, code, run.stderr());
      assert.equal(fs.readFileSync(marker, 'utf8'), 'second;first;');
      assert.match(run.stderr(), /cleanup "failing" failed: Error: this one fails/, 'a failing cleanup is reported, not fatal');
      assert.equal(pidAlive(serverPid), false, 'the managed process was stopped');
    });
  }

  test('an uncaught exception runs the cleanup and exits 1', async () => {
    const marker = path.join(scratch, 'cleanup-crash');
    const run = runScript(script(marker, `console.log(server.pid); setTimeout(() => { throw new Error('boom'); }, 50);`));
    const serverPid = Number(await run.firstLine);
    assert.equal(await run.exit, 1, run.stderr());
    assert.match(run.stderr(), /Error: boom/);
    assert.equal(fs.readFileSync(marker, 'utf8'), 'second;first;');
    assert.equal(pidAlive(serverPid), false);
  });

  test('runCleanup called twice runs each cleanup once', async () => {
    const marker = path.join(scratch, 'cleanup-twice');
    const run = runScript(script(marker, `await Promise.all([runCleanup(), runCleanup()]); await runCleanup(); console.log(server.alive());`));
    assert.equal(await run.firstLine, 'false');
    assert.equal(await run.exit, 0, run.stderr());
    assert.equal(fs.readFileSync(marker, 'utf8'), 'second;first;');
  });
});
