// CPU placement: which cores the implementation, the database and the load generator run
// on. On a 2-core machine the server side (implementation + database, as on the paper's
// server box) gets core 0 and the generator (k6, or the baseline's client) core 1, so the
// generator never takes CPU from what it measures. With fewer than 2 cores, or PIN=0,
// nothing is pinned.
import { readFileSync, readdirSync, readlinkSync } from 'node:fs';
import os from 'node:os';
import { runCommand } from '@fairbench/harness/process.ts';

export interface Placement {
  readonly implementation: number[] | null;
  readonly generator: number[] | null;
  readonly database: number[] | null;
}

export const UNPINNED: Placement = { implementation: null, generator: null, database: null };

/** Server side on the first half of the cores, generator on the rest. */
export function choosePlacement(pin: boolean, cores = os.availableParallelism()): Placement {
  if (!pin || cores < 2) return UNPINNED;
  const all = Array.from({ length: cores }, (_, i) => i);
  const server = all.slice(0, Math.floor(cores / 2));
  return { implementation: server, database: server, generator: all.slice(server.length) };
}

/** The command line prefixed with taskset when cores are given. */
export function pinned(cores: readonly number[] | null, command: string, args: readonly string[]): [string, string[]] {
  return cores ? ['taskset', ['-c', cores.join(','), command, ...args]] : [command, [...args]];
}

/** Pins every thread of a running process (threads it creates later inherit the mask). */
export async function pinProcess(pid: number, cores: readonly number[]): Promise<void> {
  await runCommand('taskset', ['-a', '-p', '-c', cores.join(','), String(pid)]);
}

/**
 * The pid of the process listening on 127.0.0.1:<port> (or any address), from
 * /proc/net/tcp{,6} and the processes' socket fds; undefined when none is visible
 * (e.g. a server in another pid namespace).
 */
export function listenerPid(port: number): number | undefined {
  const inodes = new Set<string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string;
    try {
      text = readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      const local = f[1];
      // state 0A = LISTEN; the local address ends in the port in hex.
      if (local && f[3] === '0A' && parseInt(local.split(':')[1] ?? '', 16) === port && f[9]) inodes.add(f[9]);
    }
  }
  if (inodes.size === 0) return undefined;
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${name}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      try {
        const target = readlinkSync(`/proc/${name}/fd/${fd}`);
        if (target.startsWith('socket:[') && inodes.has(target.slice(8, -1))) return Number(name);
      } catch {
        // closed meanwhile
      }
    }
  }
  return undefined;
}
