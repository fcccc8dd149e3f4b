// Faults injected into a local database server for the resilience scenarios. The server
// is found through what the provider started — its process group — never by a process
// name (other runs on the machine use the same servers). SIGSTOP of the group is not
// enough on its own: PostgreSQL puts every backend (and its auxiliary processes) in a
// session of its own (setsid), so a stall also stops every descendant of the group's
// leader, found through /proc after the group is stopped (a stopped postmaster forks no
// more); SIGCONT resumes them all.
import { readdirSync, readFileSync } from 'node:fs';
import { onCleanup } from '../../cleanup.ts';
import type { DatabaseServer } from '../types.ts';
import type { LocalDatabaseServer } from './support.ts';

export function isLocalServer(server: DatabaseServer): server is LocalDatabaseServer {
  return server.provider === 'local' && 'process' in server;
}

export interface Stall {
  /** SIGCONT to the group and the descendants stopped with it; idempotent. */
  resume(): void;
}

/** The parent of every live process (from /proc/<pid>/stat; the name in parentheses may hold spaces). */
function parents(): Map<number, number> {
  const map = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^[0-9]+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      map.set(Number(entry), ppid);
    } catch {
      // gone meanwhile
    }
  }
  return map;
}

/** Every descendant of `root` (children, their children, …), whatever group or session they moved to. */
export function descendants(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const [pid, ppid] of parents()) children.set(ppid, [...(children.get(ppid) ?? []), pid]);
  const found: number[] = [];
  const queue = [root];
  while (queue.length > 0) {
    for (const child of children.get(queue.shift()!) ?? []) {
      found.push(child);
      queue.push(child);
    }
  }
  return found;
}

function signal(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig);
  } catch {
    // the process is gone already
  }
}

/** Pauses the whole server (SIGSTOP to its process group and every descendant) until resume(), or until the run's cleanup resumes it. */
export function stallServer(server: LocalDatabaseServer): Stall {
  const pgid = server.process.pid;
  process.kill(-pgid, 'SIGSTOP');
  const stopped = descendants(pgid);
  for (const pid of stopped) signal(pid, 'SIGSTOP');
  let resumed = false;
  // A stopped group ignores SIGTERM: the cleanup resumes it first so that stopping it works.
  const unregister = onCleanup(`resume stalled ${server.kind} (pgid ${pgid})`, async () => resume());
  function resume(): void {
    if (resumed) return;
    resumed = true;
    unregister();
    for (const pid of stopped) signal(pid, 'SIGCONT');
    signal(-pgid, 'SIGCONT');
  }
  return { resume };
}
