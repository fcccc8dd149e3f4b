// What the three local servers have in common: a throwaway dir owned by the server's
// OS user and tied to the cleanup, a random password, a free loopback port, and waiting
// for readiness while watching that the server has not died.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from '../../ports.ts';
import { onCleanup } from '../../cleanup.ts';
import type { ManagedProcess } from '../../process.ts';
import { DEFAULT_DATABASE, type DatabaseServer } from '../types.ts';

export const READY_TIMEOUT_MS = 30_000;

/** What the local provider returns: the public seam plus what tests and diagnostics need. */
export interface LocalDatabaseServer extends DatabaseServer {
  readonly provider: 'local';
  /** The throwaway dir holding data, socket and log; deleted by stop(). */
  readonly dir: string;
  /** The server's process now (restart() replaces it). */
  readonly process: ManagedProcess;
  /** Stops the server (its stop signal, waited for) and starts it again on the same port and data, ready. */
  restart(): Promise<void>;
}

export interface ServerUser {
  readonly user: string;
  readonly uid: number;
  readonly gid: number;
}

/** Servers refuse to run as root: as root we run them as their package's user; otherwise as ourselves. */
export function serverUser(name: string): ServerUser | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const line = fs
    .readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`${name}:`));
  const [, , uid, gid] = line?.split(':') ?? [];
  if (uid === undefined || gid === undefined) throw new Error(`OS user '${name}' not found (is the server package installed?)`);
  return { user: name, uid: Number(uid), gid: Number(gid) };
}

/** Looks on PATH, then in the sbin dirs that non-root PATHs often lack (mariadbd lives in /usr/sbin). */
export function findExecutable(name: string): string {
  const dirs = [...(process.env.PATH ?? '').split(path.delimiter), '/usr/local/sbin', '/usr/sbin', '/sbin'];
  for (const dir of dirs.filter(Boolean)) {
    const candidate = path.join(dir, name);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  throw new Error(`${name} not found on PATH nor in /usr/sbin (is the server package installed?)`);
}

/** A fresh private dir under a temp dir the server's user can reach, owned by that user. */
export async function makeWorkDir(prefix: string, owner: ServerUser | undefined): Promise<string> {
  const dir = await fs.promises.mkdtemp(path.join(tempRootFor(owner), `fairbench-${prefix}-`));
  if (owner) await fs.promises.chown(dir, owner.uid, owner.gid);
  return dir;
}

/**
 * $TMPDIR when the server's user can traverse it, else /tmp: a root harness may be given a
 * private TMPDIR (mode 700, or under a private dir) that a server running as `mysql` or
 * `postgres` cannot enter, and the servers fail on it with "Permission denied".
 */
function tempRootFor(owner: ServerUser | undefined): string {
  const candidates = [os.tmpdir(), '/tmp'];
  if (!owner) return candidates[0]!;
  const root = candidates.find(traversableByOthers);
  if (!root) throw new Error(`neither ${candidates.join(' nor ')} can be entered by the '${owner.user}' user: set TMPDIR to a directory that can`);
  return root;
}

function traversableByOthers(dir: string): boolean {
  for (let d = path.resolve(dir); ; d = path.dirname(d)) {
    try {
      if ((fs.statSync(d).mode & 0o001) === 0) return false;
    } catch {
      return false;
    }
    if (d === path.dirname(d)) return true;
  }
}

export async function removeWorkDir(dir: string): Promise<void> {
  await fs.promises.rm(dir, { recursive: true, force: true, maxRetries: 3 });
}

/** URL-safe, so it needs no escaping in a connection URL. */
export function randomPassword(): string {
  return randomBytes(18).toString('base64url');
}

/** The name goes into DDL as it is: accept identifier characters only. */
export function databaseName(requested: string | undefined): string {
  const name = requested ?? DEFAULT_DATABASE;
  if (!/^[A-Za-z_][A-Za-z0-9_]{0,62}$/.test(name)) throw new Error(`invalid database name '${name}'`);
  return name;
}

/** Another process may take the port between the check and the bind: retry that case with a new port. */
export async function withPortRetry<T>(start: (port: number) => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await start(await freePort());
    } catch (err) {
      if (attempt >= attempts || !/address already in use/i.test(String(err))) throw err;
    }
  }
}

/** Whether something accepts TCP connections on 127.0.0.1:port right now. */
export function tcpAccepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    socket.setTimeout(1_000);
    const done = (ok: boolean): void => {
      socket.destroy();
      resolve(ok);
    };
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
    socket.once('timeout', () => done(false));
  });
}

/**
 * Calls `probe` until it resolves. Fails early if the server process died, and with
 * the server's log tail if it does not get ready in time; a server that failed is stopped.
 */
export async function waitUntilReady<T>(what: string, server: ManagedProcess, probe: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  let lastError: unknown;
  for (;;) {
    try {
      return await probe();
    } catch (err) {
      lastError = err;
    }
    if (!server.alive()) {
      await server.stop();
      throw new Error(`${what} exited before it was ready:\n${await server.tail(30)}`);
    }
    if (Date.now() > deadline) {
      await server.stop();
      throw new Error(`${what} not ready after ${READY_TIMEOUT_MS / 1000} s (last error: ${String(lastError)}):\n${await server.tail(30)}`);
    }
    await sleep(25);
  }
}

/** What a server's start function reports once the server is up, and how to start it again (same port, same data). */
export type StartedServer = Pick<LocalDatabaseServer, 'kind' | 'url' | 'engine' | 'process'> & { readonly relaunch: () => Promise<ManagedProcess> };

/**
 * Runs `start` in a fresh throwaway dir owned by the server's user. The dir and the
 * server `start` passes to track() are torn down by the returned server's stop(), by
 * the process-wide cleanup, or at once if `start` fails.
 */
export async function startInWorkDir(
  label: string,
  owner: ServerUser | undefined,
  start: (dir: string, track: (server: ManagedProcess) => void) => Promise<StartedServer>,
): Promise<LocalDatabaseServer> {
  const dir = await makeWorkDir(label.toLowerCase(), owner);
  let server: ManagedProcess | undefined;
  let stopping: Promise<void> | undefined;
  const teardownOnce = (): Promise<void> => (stopping ??= teardown(server, dir));
  const unregister = onCleanup(`${label} in ${dir}`, teardownOnce);
  const stop = (): Promise<void> => {
    unregister();
    return teardownOnce();
  };
  try {
    const started = await start(dir, (s) => {
      server = s;
    });
    let current = started.process;
    return {
      kind: started.kind,
      url: started.url,
      engine: started.engine,
      provider: 'local',
      dir,
      stop,
      get process() {
        return current;
      },
      async restart() {
        await current.stop();
        current = await started.relaunch(); // track() points the teardown at the new process
      },
    };
  } catch (err) {
    await stop();
    throw err;
  }
}

async function teardown(server: ManagedProcess | undefined, dir: string): Promise<void> {
  try {
    await server?.stop();
  } finally {
    await removeWorkDir(dir);
  }
}
