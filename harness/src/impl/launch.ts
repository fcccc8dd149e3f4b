// Builds an implementation from its manifest, starts it with the contract's
// environment, waits for GET /health, and stops it (also on failure or Ctrl-C,
// through the process registry).
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { freePort } from '../ports.ts';
import { startProcess, type ManagedProcess } from '../process.ts';
import { resultsDir } from '../paths.ts';
import type { Implementation } from './manifest.ts';

const HEALTH_TIMEOUT_MS = 60_000;
const STEP_TIMEOUT_MS = 10 * 60_000;

export interface RunningImplementation {
  readonly impl: Implementation;
  readonly baseUrl: string;
  readonly process: ManagedProcess;
  /** Milliseconds from spawn to the first 200 from /health. */
  readonly startupMs: number;
  stop(): Promise<void>;
}

function logDir(impl: Implementation): string {
  return join(resultsDir, 'logs', impl.manifest.name);
}

export function buildImplementation(impl: Implementation): Promise<void> {
  return runStep(impl, 'build', impl.manifest.build);
}

/** Runs the implementation's own unit tests (manifest `test`), after its build. */
export function testImplementation(impl: Implementation): Promise<void> {
  return runStep(impl, 'test', impl.manifest.test);
}

async function runStep(impl: Implementation, step: 'build' | 'test', command: string | undefined): Promise<void> {
  if (command === undefined) return;
  await mkdir(logDir(impl), { recursive: true });
  const child = startProcess({
    name: `${impl.manifest.name}-${step}`,
    command: 'sh',
    args: ['-c', command],
    cwd: impl.dir,
    env: { ...process.env, NODE_ENV: 'production' },
    logFile: join(logDir(impl), `${step}.log`),
  });
  const timer = setTimeout(() => void child.stop(), STEP_TIMEOUT_MS);
  const code = await child.exited.finally(() => clearTimeout(timer));
  if (code !== 0) {
    throw new Error(`${step} of ${impl.manifest.name} failed (exit ${code}): ${command}\n${await child.tail(40)}`);
  }
}

export interface StartImplementationOptions {
  /** Pin the implementation (and everything it forks) to these CPU cores with taskset; default: not pinned. */
  readonly cpus?: readonly number[];
}

export async function startImplementation(
  impl: Implementation,
  env: (port: number) => Record<string, string>,
  opts: StartImplementationOptions = {},
): Promise<RunningImplementation> {
  await mkdir(logDir(impl), { recursive: true });
  const port = await freePort();
  const started = performance.now();
  const child = startProcess({
    name: impl.manifest.name,
    // taskset execs sh, which execs the start command: the pid stays the implementation's.
    ...(opts.cpus && opts.cpus.length > 0
      ? { command: 'taskset', args: ['-c', opts.cpus.join(','), 'sh', '-c', `exec ${impl.manifest.start}`] }
      : { command: 'sh', args: ['-c', `exec ${impl.manifest.start}`] }),
    cwd: impl.dir,
    env: { ...process.env, ...env(port) },
    logFile: join(logDir(impl), 'server.log'),
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  try {
    await waitForHealth(baseUrl, child);
  } catch (error) {
    await child.stop();
    throw error;
  }
  return { impl, baseUrl, process: child, startupMs: performance.now() - started, stop: () => child.stop() };
}

async function waitForHealth(baseUrl: string, child: ManagedProcess): Promise<void> {
  const deadline = Date.now() + HEALTH_TIMEOUT_MS;
  let last = 'no answer yet';
  while (Date.now() < deadline) {
    if (!child.alive()) throw new Error(`exited before /health answered:\n${await child.tail(30)}`);
    try {
      const res = await fetch(`${baseUrl}/health`, { signal: AbortSignal.timeout(2000) });
      await res.arrayBuffer();
      if (res.status === 200) return;
      last = `HTTP ${res.status}`;
    } catch (error) {
      last = error instanceof Error ? error.message : String(error);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`/health did not answer 200 within ${HEALTH_TIMEOUT_MS / 1000} s (last: ${last}):\n${await child.tail(30)}`);
}
