// Builds an implementation from its manifest, starts it with the contract's
// environment, waits for GET /health, and stops it (also on failure or Ctrl-C,
// through the process registry). In the containers runtime it is built from its
// Dockerfile and started as a container instead (container.ts).
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { freePort } from '../ports.ts';
import { startProcess, type ManagedProcess } from '../process.ts';
import { resultsDir } from '../paths.ts';
import type { RunningContainer } from '../containers/container.ts';
import type { RuntimeProviderName } from '../provision/types.ts';
import { buildImplementationImage, startImplementationContainer } from './container.ts';
import { healthAnswers } from './health.ts';
import type { Implementation } from './manifest.ts';
import { localHost, type Host } from '../hosts/host.ts';
import { variantPath } from './variants.ts';
import { runBuild } from './run-builds.ts';

// FAIRBENCH_HEALTH_TIMEOUT_S stretches the wait on a machine so loaded that a JVM takes minutes to start.
const HEALTH_TIMEOUT_MS = Number(process.env.FAIRBENCH_HEALTH_TIMEOUT_S ?? 60) * 1000;
const STEP_TIMEOUT_MS = 10 * 60_000;

export interface RunningImplementation {
  readonly impl: Implementation;
  readonly baseUrl: string;
  /** Where it runs: a local process or a container. */
  readonly runtime: RuntimeProviderName;
  /** The process group; in a container, its main process (host pid) behind the same interface. */
  readonly process: ManagedProcess;
  /** The container, in the containers runtime only. */
  readonly container?: RunningContainer;
  /** The runtime's version inside the container (the host's may differ), in the containers runtime only. */
  readonly runtimeVersion?: string;
  /** Milliseconds from spawn (or container start) to the first 200 from /health. */
  readonly startupMs: number;
  stop(): Promise<void>;
}

export interface LaunchOptions {
  /** local (default): a process from the manifest's build/start; containers: an image from its Dockerfile. */
  readonly runtime?: RuntimeProviderName;
  /** Local runtime only: pin the implementation (and everything it forks) to these CPU cores with taskset; default: not pinned. */
  readonly cpus?: readonly number[];
  /** Local runtime only: run it on this host of a topology (pinned to the host's cores; `cpus` is then ignored), listening on its address. */
  readonly host?: Host;
}

function logDir(impl: Implementation): string {
  return join(resultsDir, 'logs', impl.manifest.name);
}

/**
 * Each implementation folder's build (or image) once per process: a command that launches an
 * implementation once per API (fuzzing, the pacts' verification, resilience) builds it once, not
 * once per API — a Maven or .NET build that has nothing to do still costs seconds of CPU. Callers
 * that build at once share the one build. In make test, once per run across its lanes (run-builds.ts);
 * an image is built only when its content-addressed tag is missing (container.ts).
 */
const builds = new Map<string, Promise<void>>();

export function buildImplementation(impl: Implementation, opts: LaunchOptions = {}): Promise<void> {
  const key = `${opts.runtime ?? 'local'}:${impl.dir}:${impl.manifest.build ?? ''}`;
  let build = builds.get(key);
  if (build === undefined) {
    build = opts.runtime === 'containers' ? buildImplementationImage(impl).then(() => undefined) : buildLocally(impl);
    // A failed build is not remembered: the next caller tries again and sees the failure itself.
    build.catch(() => builds.delete(key));
    builds.set(key, build);
  }
  return build;
}

/** The manifest's build in the folder, unless an earlier lane of this make test run built the same sources (run-builds.ts). */
async function buildLocally(impl: Implementation): Promise<void> {
  const command = impl.manifest.build;
  if (command === undefined) return;
  const shared = await runBuild(impl.dir, command);
  if (shared?.done) return;
  await runStep(impl, 'build', command);
  await shared?.record();
}

/** Runs the implementation's own unit tests (manifest `test`), after its build. */
export function testImplementation(impl: Implementation): Promise<void> {
  return runStep(impl, 'test', impl.manifest.test);
}

/** A step of the implementation's (build, test, a defect's rebuild) in its folder; `env` adds to the harness's. */
export async function runStep(impl: Implementation, step: string, command: string | undefined, env: Record<string, string> = {}): Promise<void> {
  if (command === undefined) return;
  await mkdir(logDir(impl), { recursive: true });
  const child = startProcess({
    name: `${impl.manifest.name}-${step}`,
    command: 'sh',
    args: ['-c', command],
    cwd: impl.dir,
    env: { ...process.env, NODE_ENV: 'production', ...env },
    logFile: join(logDir(impl), `${step}.log`),
  });
  const timer = setTimeout(() => void child.stop(), STEP_TIMEOUT_MS);
  const code = await child.exited.finally(() => clearTimeout(timer));
  if (code !== 0) {
    throw new Error(`${step} of ${impl.manifest.name} failed (exit ${code}): ${command}\n${await child.tail(40)}`);
  }
}

export async function startImplementation(
  impl: Implementation,
  env: (port: number) => Record<string, string>,
  opts: LaunchOptions = {},
): Promise<RunningImplementation> {
  await mkdir(logDir(impl), { recursive: true });
  const port = await freePort();
  if (opts.runtime === 'containers') {
    const started = await startImplementationContainer(impl, env(port), `http://127.0.0.1:${port}`);
    return { impl, baseUrl: `http://127.0.0.1:${port}`, runtime: 'containers', ...started };
  }
  const started = performance.now();
  const host = opts.host ?? localHost(opts.cpus && opts.cpus.length > 0 ? opts.cpus : null);
  const contract = { ...env(port), HOST: host.address, PATH: variantPath(impl.variant) };
  const child = startProcess({
    name: impl.manifest.name,
    // taskset (the host's cores) execs sh, which execs the start command: the pid stays the implementation's.
    command: 'sh',
    args: ['-c', `exec ${impl.manifest.start}`],
    host,
    ownEnv: contract,
    cwd: impl.dir,
    // A variant's runtime directories first (its start command's `java` is JDK 21's).
    env: { ...process.env, ...contract },
    logFile: join(logDir(impl), 'server.log'),
  });
  const baseUrl = `http://${host.address}:${port}`;
  try {
    await waitForHealth(baseUrl, child);
  } catch (error) {
    await child.stop();
    throw error;
  }
  return {
    impl,
    baseUrl,
    runtime: 'local',
    process: child,
    startupMs: performance.now() - started,
    stop: () => child.stop(),
  };
}

async function waitForHealth(baseUrl: string, child: ManagedProcess): Promise<void> {
  const deadline = Date.now() + HEALTH_TIMEOUT_MS;
  let last = 'no answer yet';
  while (Date.now() < deadline) {
    if (!child.alive()) throw new Error(`exited before /health answered:\n${await child.tail(30)}`);
    try {
      await healthAnswers(baseUrl);
      return;
    } catch (error) {
      last = error instanceof Error ? error.message : String(error);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`/health did not answer 200 within ${HEALTH_TIMEOUT_MS / 1000} s (last: ${last}):\n${await child.tail(30)}`);
}
