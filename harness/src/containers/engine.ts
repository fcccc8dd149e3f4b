// The container engine behind Testcontainers: a Docker engine where one answers (GitHub's
// runners), else Podman, whose Docker-API service the harness starts as a managed process
// on a socket in a private dir and always stops. Every podman call is bounded in time, and
// every container carries the project's labels so that one a killed run left behind is
// removed by the next `make setup` (reapStaleContainers).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { installSignalHandlers, onCleanup } from '../cleanup.ts';
import { repoRoot, stateDir } from '../paths.ts';
import { harnessAlive, harnessIdentity, runCommand, startProcess } from '../process.ts';

/** The project's own Podman settings (runc, ulimits, host network); /etc is never edited. */
export const CONTAINERS_CONF = path.join(repoRoot, 'images', 'containers.conf');
/** On every container and image the harness creates. */
export const PROJECT_LABEL = 'fairbench';
/** The harness process that started a container: the reaper removes it once that process is gone. */
export const OWNER_LABEL = 'fairbench.owner';

export type EngineKind = 'docker' | 'podman';

export type EngineProbe = { readonly ok: true; readonly kind: EngineKind; readonly detail: string } | { readonly ok: false; readonly reason: string };

const PROBE_TIMEOUT_MS = 8_000;
const SERVICE_READY_TIMEOUT_MS = 15_000;

export function podmanEnv(): NodeJS.ProcessEnv {
  return { ...process.env, CONTAINERS_CONF };
}

/** A podman CLI call with the project's settings, bounded in time. */
export function podman(args: string[], timeoutMs = 60_000): Promise<{ stdout: string; stderr: string }> {
  return runCommand('podman', args, { env: podmanEnv(), timeoutMs });
}

/** Labels for a container this harness starts. */
export function containerLabels(role: string): Record<string, string> {
  return { [PROJECT_LABEL]: '1', [`${PROJECT_LABEL}.role`]: role, [OWNER_LABEL]: harnessIdentity() };
}

/** Which engine Testcontainers would talk to, in a few seconds at most; never throws. */
export function probeEngine(): EngineProbe {
  // A Ctrl-C during the probe (or before the first container) must end the process through
  // the cleanup, not be swallowed (e.g. by the test runner) while the harness goes on to start things.
  installSignalHandlers();
  const dockerHost = process.env['DOCKER_HOST'];
  if ((dockerHost !== undefined && dockerHost !== '') || fs.existsSync('/var/run/docker.sock')) {
    const docker = probeCommand('docker', ['info', '--format', '{{.ServerVersion}}']);
    if (docker.ok) return { ok: true, kind: 'docker', detail: `Docker engine ${docker.out}` };
  }
  if (!onPath('podman')) return { ok: false, reason: 'no Docker engine answers and podman is not installed (scripts/setup.sh installs it)' };
  const info = probeCommand('podman', ['info', '--format', '{{.Version.Version}} {{.Host.OCIRuntime.Name}}']);
  if (!info.ok) return { ok: false, reason: `podman info failed: ${info.out}` };
  return { ok: true, kind: 'podman', detail: `Podman ${info.out}` };
}

/** Runs a container to completion as the final proof that containers can start here (seconds; bounded). */
export function probeRun(image: string): { ok: true } | { ok: false; reason: string } {
  const name = `fairbench-probe-${process.pid}`;
  const labels = Object.entries(containerLabels('probe')).flatMap(([k, v]) => ['--label', `${k}=${v}`]);
  const result = probeCommand('podman', ['run', '--rm', '--name', name, ...labels, '--network=host', '--entrypoint', 'true', image], 15_000);
  if (result.ok) return { ok: true };
  probeCommand('podman', ['rm', '-f', '-t', '0', name]); // a run cut short by the timeout may have left it
  return { ok: false, reason: `podman run ${image} failed: ${result.out}` };
}

/** A bounded synchronous call (for probes that must answer before anything starts). */
export function probeCommand(command: string, args: string[], timeout = PROBE_TIMEOUT_MS): { ok: boolean; out: string } {
  const r = spawnSync(command, args, { env: podmanEnv(), timeout, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  if (r.error) return { ok: false, out: (r.error as NodeJS.ErrnoException).code === 'ETIMEDOUT' ? `timed out after ${timeout / 1000} s` : r.error.message };
  const out = `${r.stdout ?? ''}${r.stderr ?? ''}`.trim().split('\n').slice(-3).join(' / ');
  return { ok: r.status === 0, out: r.status === 0 ? (r.stdout ?? '').trim() : out || `exit ${r.status}` };
}

function onPath(command: string): boolean {
  return (process.env['PATH'] ?? '').split(path.delimiter).some((dir) => {
    try {
      fs.accessSync(path.join(dir, command), fs.constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

let connected: Promise<EngineKind> | undefined;

/**
 * Makes Testcontainers' environment point at a working engine, once per process: with
 * Podman, starts its API service (stopped by the process-wide cleanup, after the containers).
 */
export function connectEngine(): Promise<EngineKind> {
  connected ??= (async () => {
    const probe = probeEngine();
    if (!probe.ok) throw new Error(`no container engine: ${probe.reason}`);
    // Ryuk (Testcontainers' reaper) is an image from a registry: the harness's cleanup does its job.
    process.env['TESTCONTAINERS_RYUK_DISABLED'] = 'true';
    if (probe.kind === 'docker') return 'docker';
    // This machine looks like a container itself (/.dockerenv): without this Testcontainers
    // would look for the engine's host on a bridge gateway.
    process.env['TESTCONTAINERS_HOST_OVERRIDE'] = 'localhost';
    process.env['CONTAINERS_CONF'] = CONTAINERS_CONF;
    process.env['DOCKER_HOST'] = `unix://${await startPodmanService()}`;
    return 'podman';
  })();
  return connected;
}

async function startPodmanService(): Promise<string> {
  // Registered before the service so that they run after it (cleanup is newest first): any
  // container of ours that a cut-short start left behind goes too, and a later start after
  // the cleanup (a long-lived process) gets a new service.
  onCleanup('podman service handle', async () => {
    connected = undefined;
  });
  onCleanup('containers of this harness', removeOwnContainers);
  const dir = socketDir(); // 700: the socket is ours alone
  onCleanup('podman service dir', () => fs.promises.rm(dir, { recursive: true, force: true })); // after the service stops
  const socket = path.join(dir, 'podman.sock');
  const service = startProcess({
    name: 'podman-service',
    command: 'podman',
    args: ['system', 'service', '--time=0', `unix://${socket}`],
    env: podmanEnv(),
    logFile: path.join(dir, 'service.log'),
    ownedDir: dir,
  });
  const deadline = Date.now() + SERVICE_READY_TIMEOUT_MS;
  while (!(await pings(socket))) {
    if (!service.alive() || Date.now() > deadline) {
      await service.stop();
      throw new Error(`the Podman API service did not answer on ${socket}:\n${await service.tail(20)}`);
    }
    await sleep(50);
  }
  return socket;
}

/** Under the run state dir, unless the clone's path is too long for a unix socket (108 bytes). */
function socketDir(): string {
  for (const parent of [stateDir, os.tmpdir(), '/tmp']) {
    if (path.join(parent, 'podman-XXXXXX', 'podman.sock').length > 100) continue;
    fs.mkdirSync(parent, { recursive: true });
    return fs.mkdtempSync(path.join(parent, 'podman-'));
  }
  throw new Error('no directory with a path short enough for the Podman socket');
}

function pings(socket: string): Promise<boolean> {
  return new Promise((resolve) => {
    const req = http.get({ socketPath: socket, path: '/_ping', timeout: 1_000 }, (res) => {
      res.resume();
      resolve(res.statusCode === 200);
    });
    req.on('error', () => resolve(false));
    req.on('timeout', () => req.destroy());
  });
}

async function removeOwnContainers(): Promise<void> {
  const ids = await projectContainers().then((cs) => cs.filter((c) => c.owner === harnessIdentity()).map((c) => c.id));
  if (ids.length === 0) return;
  await podman(['rm', '-f', '-t', '0', ...ids], 30_000);
  killConmons(new Set(ids));
}

interface ProjectContainer {
  readonly id: string;
  readonly name: string;
  readonly owner: string;
}

async function projectContainers(): Promise<ProjectContainer[]> {
  const { stdout } = await podman(['ps', '-a', '--filter', `label=${PROJECT_LABEL}=1`, '--format', 'json'], 15_000);
  const list = JSON.parse(stdout || '[]') as { Id: string; Names?: string[]; Labels?: Record<string, string> }[];
  return list.map((c) => ({ id: c.Id, name: c.Names?.[0] ?? c.Id.slice(0, 12), owner: c.Labels?.[OWNER_LABEL] ?? '' }));
}

/** Removes the project's containers whose harness is gone (a run killed outright). Returns their names. */
export async function reapStaleContainers(): Promise<string[]> {
  if (!onPath('podman')) return [];
  const stale = (await projectContainers()).filter((c) => !harnessAlive(c.owner));
  if (stale.length > 0) {
    await podman(['rm', '-f', '-t', '0', ...stale.map((c) => c.id)], 30_000);
    killConmons(new Set(stale.map((c) => c.id)));
  }
  return stale.map((c) => c.name);
}

/**
 * A container created but never started (its start cut short) keeps its conmon waiting
 * after the container is removed: kill the conmon of each removed container.
 */
function killConmons(ids: ReadonlySet<string>): void {
  let pids: string[];
  try {
    pids = fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p));
  } catch {
    return;
  }
  for (const pid of pids) {
    let argv: string[];
    try {
      argv = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    } catch {
      continue;
    }
    if (!path.basename(argv[0] ?? '').startsWith('conmon')) continue;
    const id = argv[argv.indexOf('-c') + 1];
    if (argv.includes('-c') && id !== undefined && ids.has(id)) {
      try {
        process.kill(Number(pid), 'SIGKILL');
      } catch {
        // gone meanwhile
      }
    }
  }
}

// Containers of this process being started or running. If the process exits without its
// cleanup (a second Ctrl-C, process.exit elsewhere), they are removed synchronously.
let liveContainers = 0;
let exitHookInstalled = false;

/** Counts a container from before its creation until it is removed; returns the "removed" call. */
export function trackContainer(): () => void {
  liveContainers++;
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.on('exit', () => {
      if (liveContainers > 0) removeOwnContainersSync();
    });
  }
  let done = false;
  return () => {
    if (!done) liveContainers--;
    done = true;
  };
}

function removeOwnContainersSync(): void {
  const list = probeCommand('podman', ['ps', '-a', '-q', '--no-trunc', '--filter', `label=${OWNER_LABEL}=${harnessIdentity()}`], 10_000);
  const ids = list.ok ? list.out.split('\n').filter(Boolean) : [];
  if (ids.length === 0) return;
  probeCommand('podman', ['rm', '-f', '-t', '0', ...ids], 20_000);
  killConmons(new Set(ids));
}
