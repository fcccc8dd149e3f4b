// Child processes the harness owns (database servers, implementations): each runs in
// its own process group so that stopping it also stops whatever it forked, its output
// goes to a log file, and it is recorded on disk so that a harness that died without
// cleaning up (SIGKILL, OOM) has its leftovers killed by the next one (reapStale).
import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { installSignalHandlers, onCleanup } from './cleanup.ts';
import { onHost, type Host } from './hosts/host.ts';
import { stateDir } from './paths.ts';

export interface ManagedProcess {
  /** Pid of the group leader, which is also the process group id. */
  readonly pid: number;
  readonly logFile: string;
  /** Resolves with the leader's exit code (null when killed by a signal). */
  readonly exited: Promise<number | null>;
  /** Signals the whole group, escalates to SIGKILL after timeoutMs, resolves once no process of the group is left. */
  stop(opts?: { signal?: NodeJS.Signals; timeoutMs?: number }): Promise<void>;
  /** Whether any (non-zombie) process of the group is still running. */
  alive(): boolean;
  /** The last lines of the log file, for error messages. */
  tail(lines?: number): Promise<string>;
  /** It runs on another machine (over SSH): `pid` is the local ssh client's, so its CPU is not the process's. */
  readonly remote?: boolean;
}

export interface StartOptions {
  /** Short label for logs and cleanup messages. */
  name: string;
  command: string;
  args: string[];
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  logFile: string;
  /** What stop() sends first (default SIGTERM). */
  stopSignal?: NodeJS.Signals;
  /** Run as this OS user (via setpriv; needs root). */
  user?: string;
  /** A throwaway dir that belongs to this process: reapStale removes it with the group. */
  ownedDir?: string;
  /** Run it on this host (hosts/host.ts; default: here, as it is). */
  host?: Host;
  /** What the process needs beyond the harness's environment: all a process on an SSH host gets. */
  ownEnv?: Readonly<Record<string, string>>;
}

const DEFAULT_STOP_TIMEOUT_MS = 10_000;
const POLL_MS = 20;
const pidsDir = path.join(stateDir, 'pids');

/** Groups started by this harness and not yet stopped: killed synchronously if the process exits without cleanup. */
const liveGroups = new Map<number, { readonly recordFile: string; readonly ownedDir: string | undefined }>();

export function startProcess(opts: StartOptions): ManagedProcess {
  installSignalHandlers();
  fs.mkdirSync(path.dirname(opts.logFile), { recursive: true });
  const [userCommand, userArgs, userEnv] = withUser(opts.command, opts.args, opts.user);
  const [command, args] = opts.host
    ? onHost(opts.host, userCommand, userArgs, { ...(opts.ownEnv ? { env: opts.ownEnv } : {}), ...(opts.cwd ? { cwd: opts.cwd } : {}) })
    : [userCommand, userArgs];
  const log = fs.openSync(opts.logFile, 'a');
  let child;
  try {
    child = spawn(command, args, {
      cwd: opts.cwd,
      env: { ...(opts.env ?? process.env), ...userEnv },
      detached: true, // own process group, and no SIGINT from the terminal's Ctrl-C: cleanup decides
      stdio: ['ignore', log, log],
    });
  } finally {
    fs.closeSync(log);
  }
  const pid = child.pid;
  if (pid === undefined) {
    child.on('error', () => {}); // reported by the throw below
    throw new Error(`${opts.name}: cannot start ${command} (not found or not executable)`);
  }

  const recordFile = writeRecord(pid, opts);
  installExitSafetyNet();
  liveGroups.set(pid, { recordFile, ownedDir: opts.ownedDir });
  const forget = (): void => {
    unregister();
    liveGroups.delete(pid);
    fs.rmSync(recordFile, { force: true });
  };
  const exited = new Promise<number | null>((resolve) => {
    child.on('exit', (code) => {
      // A one-shot command that ended with its whole group needs no stop(): drop its bookkeeping now.
      if (!groupAlive(pid)) forget();
      resolve(code);
    });
    child.on('error', () => resolve(null));
  });

  let stopping: Promise<void> | undefined;
  const stop = (stopOpts: { signal?: NodeJS.Signals; timeoutMs?: number } = {}): Promise<void> => {
    stopping ??= (async () => {
      try {
        await killGroup(pid, stopOpts.signal ?? opts.stopSignal ?? 'SIGTERM', stopOpts.timeoutMs ?? DEFAULT_STOP_TIMEOUT_MS);
        await exited;
      } finally {
        forget();
      }
    })();
    return stopping;
  };
  const unregister = onCleanup(`process ${opts.name} (pid ${pid})`, () => stop());

  return {
    pid,
    logFile: opts.logFile,
    exited,
    stop,
    alive: () => groupAlive(pid),
    tail: (lines) => tailFile(opts.logFile, lines),
    ...(opts.host?.via === 'ssh' ? { remote: true } : {}),
  };
}

/** Runs a command to completion; rejects with its output in the message if it fails. */
export async function runCommand(
  command: string,
  args: string[],
  opts: { user?: string; cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {},
): Promise<{ stdout: string; stderr: string }> {
  const [cmd, argv, userEnv] = withUser(command, args, opts.user);
  return new Promise((resolve, reject) => {
    execFile(
      cmd,
      argv,
      { cwd: opts.cwd, env: { ...(opts.env ?? process.env), ...userEnv }, timeout: opts.timeoutMs ?? 60_000, maxBuffer: 16 << 20 },
      (err, stdout, stderr) => {
        if (!err) return resolve({ stdout, stderr });
        const output = lastLines(`${stdout}\n${stderr}`.trim(), 30);
        reject(new Error(`${[command, ...args].join(' ')} failed: ${err.message.split('\n')[0]}\n${output}`));
      },
    );
  });
}

/**
 * Kills the process groups recorded by harness processes that are no longer alive
 * (and removes their owned dirs). Returns a description of each group it killed.
 */
export async function reapStale(): Promise<string[]> {
  const killed: string[] = [];
  for (const { file: recordFile, record } of readRecords<PidRecord>(pidsDir)) {
    if (sameProcess(record.ownerPid, record.ownerStart)) continue;
    if (isOurGroup(record)) {
      signalGroup(record.pgid, 'SIGKILL'); // its data is throwaway: no need for a clean shutdown
      await waitGroupGone(record.pgid, 5_000);
      killed.push(`${record.name} (pgid ${record.pgid}, started ${record.startedAt} by harness pid ${record.ownerPid})`);
    }
    if (record.ownedDir && path.isAbsolute(record.ownedDir) && record.ownedDir !== '/') {
      fs.rmSync(record.ownedDir, { recursive: true, force: true });
    }
    fs.rmSync(recordFile, { force: true });
  }
  return killed;
}

/**
 * The JSON records (*.json) in `dir` that a harness keeps of what it started, each with its
 * file. One that does not parse is left out: a live harness is writing it right now, or junk.
 */
export function readRecords<T>(dir: string): { file: string; record: T }[] {
  let files: string[];
  try {
    files = fs.readdirSync(dir).filter((f) => f.endsWith('.json'));
  } catch {
    return [];
  }
  return files.flatMap((f) => {
    const file = path.join(dir, f);
    try {
      return [{ file, record: JSON.parse(fs.readFileSync(file, 'utf8')) as T }];
    } catch {
      return [];
    }
  });
}

/** This harness process as recorded in pid records and container labels: pid plus its start time. */
export function harnessIdentity(): string {
  return `${process.pid}-${startTime(process.pid) ?? ''}`;
}

/** Whether the harness that wrote `identity` (harnessIdentity()) is still running. */
export function harnessAlive(identity: string): boolean {
  const [pid, start] = identity.split('-');
  if (!pid || !/^\d+$/.test(pid)) return false;
  return sameProcess(Number(pid), start ? Number(start) : null);
}

// ---- pid records -------------------------------------------------------------

interface PidRecord {
  pgid: number;
  /** Start time of the group leader (clock ticks since boot), to tell it from a later process with the same pid. */
  leaderStart: number | null;
  name: string;
  command: string;
  ownerPid: number;
  ownerStart: number | null;
  ownedDir?: string;
  startedAt: string;
}

function writeRecord(pid: number, opts: StartOptions): string {
  const record: PidRecord = {
    pgid: pid,
    leaderStart: startTime(pid),
    name: opts.name,
    command: [opts.command, ...opts.args].join(' '),
    ownerPid: process.pid,
    ownerStart: startTime(process.pid),
    ...(opts.ownedDir ? { ownedDir: opts.ownedDir } : {}),
    startedAt: new Date().toISOString(),
  };
  fs.mkdirSync(pidsDir, { recursive: true });
  const file = path.join(pidsDir, `${pid}.json`);
  fs.writeFileSync(file, JSON.stringify(record, null, 2) + '\n');
  return file;
}

/** Whether the recorded group still holds our processes (not a newer group that reuses the id). */
function isOurGroup(record: PidRecord): boolean {
  const leader = procStat(record.pgid);
  // While any member of a group lives, its id is not reused as a pid: if the leader pid
  // runs, it is either our leader or a newcomer that may have taken the id as a group.
  if (leader && leader.state !== 'Z') return sameProcess(record.pgid, record.leaderStart);
  return groupAlive(record.pgid);
}

function sameProcess(pid: number, start: number | null): boolean {
  const stat = procStat(pid);
  if (!stat) return pidExists(pid); // no /proc (not Linux): trust the pid
  return stat.state !== 'Z' && (start === null || stat.start === start);
}

// ---- process groups ------------------------------------------------------------

async function killGroup(pgid: number, signal: NodeJS.Signals, timeoutMs: number): Promise<void> {
  if (!groupAlive(pgid)) return;
  signalGroup(pgid, signal);
  if (await waitGroupGone(pgid, timeoutMs)) return;
  signalGroup(pgid, 'SIGKILL');
  if (!(await waitGroupGone(pgid, 5_000))) throw new Error(`process group ${pgid} survived SIGKILL`);
}

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ESRCH') throw err;
  }
}

async function waitGroupGone(pgid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (groupAlive(pgid)) {
    if (Date.now() >= deadline) return false;
    await sleep(POLL_MS);
  }
  return true;
}

/** Any process of the group that is not a zombie (zombies hold no resources, and whether they get reaped is up to init). */
function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
  } catch {
    return false; // ESRCH: no member at all (EPERM cannot happen for our own groups as root, nor for our own user's)
  }
  let pids: string[];
  try {
    pids = fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return true; // no /proc: the kill(0) above is all we know
  }
  return pids.some((p) => {
    const stat = procStat(Number(p));
    return stat !== undefined && stat.pgrp === pgid && stat.state !== 'Z' && stat.state !== 'X';
  });
}

function pidExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

interface ProcStat {
  state: string;
  pgrp: number;
  start: number;
}

/** Fields of /proc/<pid>/stat; undefined if the process does not exist (or there is no /proc). */
function procStat(pid: number): ProcStat | undefined {
  let text: string;
  try {
    text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // "pid (comm) state ppid pgrp ... starttime ...": comm may contain spaces and parens.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return { state: fields[0] ?? '?', pgrp: Number(fields[2]), start: Number(fields[19]) };
}

function startTime(pid: number): number | null {
  return procStat(pid)?.start ?? null;
}

let safetyNetInstalled = false;

/** Last resort when the process exits without running the cleanup (process.exit elsewhere): no server outlives the harness. */
function installExitSafetyNet(): void {
  if (safetyNetInstalled) return;
  safetyNetInstalled = true;
  process.on('exit', () => {
    for (const [pgid, { recordFile, ownedDir }] of liveGroups) {
      signalGroup(pgid, 'SIGKILL');
      fs.rmSync(recordFile, { force: true });
      // A killed server's files are of no use to anyone (a MariaDB copy is ~100 MB).
      if (ownedDir !== undefined) fs.rmSync(ownedDir, { recursive: true, force: true });
    }
  });
}

// ---- helpers -------------------------------------------------------------------

/**
 * Runs the command as `user` with setpriv, which sets the ids and execs: the server itself
 * leads its process group. (runuser forks and waits, and a waiting runuser stops itself
 * when its child is stopped; a stalled database's runuser could stay stopped after the
 * resume and hold its group alive through the next stop.)
 */
function withUser(command: string, args: string[], user: string | undefined): [string, string[], NodeJS.ProcessEnv] {
  if (!user) return [command, args, {}];
  const entry = fs
    .readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`${user}:`))
    ?.split(':');
  if (entry?.[3] === undefined) throw new Error(`OS user '${user}' not found`);
  const [, , , gid, , home] = entry;
  return ['setpriv', [`--reuid=${user}`, `--regid=${gid}`, '--init-groups', '--', command, ...args], { HOME: home ?? '/', USER: user, LOGNAME: user }];
}

async function tailFile(file: string, lines = 40): Promise<string> {
  let handle;
  try {
    handle = await fs.promises.open(file, 'r');
  } catch {
    return '';
  }
  try {
    const { size } = await handle.stat();
    const length = Math.min(size, 64 * 1024);
    const buffer = Buffer.alloc(length);
    await handle.read(buffer, 0, length, size - length);
    return lastLines(buffer.toString('utf8'), lines);
  } finally {
    await handle.close();
  }
}

function lastLines(text: string, lines: number): string {
  return text.trimEnd().split('\n').slice(-lines).join('\n');
}
