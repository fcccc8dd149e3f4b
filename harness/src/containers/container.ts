// One container started through Testcontainers the way the harness needs it: host
// networking (so every request goes to 127.0.0.1 on a port the harness picked), the
// project's labels, its output in a log file, readiness checked from the host by a probe
// (never by exec into the container, which leaves a conmon per check behind), and a stop
// tied to the process-wide cleanup.
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { GenericContainer, getContainerRuntimeClient, type StartedTestContainer } from 'testcontainers';
import { onCleanup } from '../cleanup.ts';
import { resultsDir } from '../paths.ts';
import { connectEngine, containerLabels, trackContainer } from './engine.ts';

export interface ContainerOptions {
  /** Short label: container name prefix, log file name, cleanup message. */
  readonly role: string;
  readonly image: string;
  readonly env?: Record<string, string>;
  readonly command?: string[];
  /** Resolves once the service in the container answers; called until it does. */
  readonly probe: () => Promise<unknown>;
  readonly readyTimeoutMs?: number;
}

export interface RunningContainer {
  readonly id: string;
  /** Host pid of the container's main process (for CPU/RSS sampling, affinity). */
  readonly pid: number;
  readonly name: string;
  readonly image: string;
  readonly logFile: string;
  /** Milliseconds from the start request to the first successful probe. */
  readonly readyMs: number;
  /** False once the container's main process has exited. */
  alive(): boolean;
  /** Resolves once the container's main process has exited (or the container was stopped). */
  readonly exited: Promise<void>;
  tail(lines?: number): Promise<string>;
  /** Stops and removes the container. Idempotent. */
  stop(): Promise<void>;
}

const DEFAULT_READY_TIMEOUT_MS = 60_000;

export async function startContainer(opts: ContainerOptions): Promise<RunningContainer> {
  await connectEngine();
  const name = `fairbench-${opts.role}-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  const logFile = path.join(resultsDir, 'logs', 'containers', `${name}.log`);
  fs.mkdirSync(path.dirname(logFile), { recursive: true });
  const log = fs.createWriteStream(logFile);
  let exited = false;
  let markExited: () => void = () => {};
  const exitedPromise = new Promise<void>((resolve) => {
    markExited = () => {
      exited = true;
      resolve();
    };
  });

  let started: StartedTestContainer | undefined;
  let stopping: Promise<void> | undefined;
  const untrack = trackContainer();
  const teardown = (): Promise<void> =>
    (stopping ??= (async () => {
      try {
        await started?.stop({ timeout: 0, remove: true });
        // Not started yet (a start cut short by Ctrl-C): the exit hook or the engine's cleanup removes it.
        if (started) untrack();
      } finally {
        markExited();
        log.end();
      }
    })());
  const unregister = onCleanup(`container ${name}`, teardown);
  const stop = (): Promise<void> => {
    unregister();
    return teardown();
  };

  const begin = performance.now();
  try {
    let container = new GenericContainer(opts.image)
      .withName(name)
      .withNetworkMode('host')
      .withLabels(containerLabels(opts.role))
      .withEnvironment(opts.env ?? {})
      .withStartupTimeout(opts.readyTimeoutMs ?? DEFAULT_READY_TIMEOUT_MS)
      .withLogConsumer((stream) => {
        stream.pipe(log, { end: false });
        stream.on('end', markExited);
      });
    if (opts.command) container = container.withCommand(opts.command);
    started = await container.start();
    const client = await getContainerRuntimeClient();
    const pid = (await client.container.inspect(client.container.getById(started.getId()))).State.Pid;
    const tail = (lines = 30): Promise<string> => tailOf(logFile, lines);
    await waitForProbe(opts, () => !exited, tail);
    const readyMs = performance.now() - begin;
    return { id: started.getId(), pid, name, image: opts.image, logFile, readyMs, alive: () => !exited, exited: exitedPromise, tail, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

async function waitForProbe(opts: ContainerOptions, alive: () => boolean, tail: (lines?: number) => Promise<string>): Promise<void> {
  const timeoutMs = opts.readyTimeoutMs ?? DEFAULT_READY_TIMEOUT_MS;
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      await opts.probe();
      return;
    } catch (err) {
      last = err;
    }
    if (!alive()) {
      await sleep(100); // let the last lines of its output arrive
      throw new Error(`container ${opts.role} (${opts.image}) exited before it was ready:\n${await tail()}`);
    }
    if (Date.now() > deadline) {
      throw new Error(`container ${opts.role} (${opts.image}) not ready after ${timeoutMs / 1000} s (last: ${String(last)}):\n${await tail()}`);
    }
    await sleep(50);
  }
}

async function tailOf(file: string, lines: number): Promise<string> {
  try {
    return (await fs.promises.readFile(file, 'utf8')).trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '';
  }
}
