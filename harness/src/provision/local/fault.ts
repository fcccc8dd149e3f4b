// Faults injected into a local database server for the resilience scenarios. The server
// is found through what the provider started — its process group — never by a process
// name (other runs on the machine use the same servers): SIGSTOP of the group stalls
// every process of it (PostgreSQL's backends with the postmaster), SIGCONT resumes it.
import { onCleanup } from '../../cleanup.ts';
import type { DatabaseServer } from '../types.ts';
import type { LocalDatabaseServer } from './support.ts';

export function isLocalServer(server: DatabaseServer): server is LocalDatabaseServer {
  return server.provider === 'local' && 'process' in server;
}

export interface Stall {
  /** SIGCONT to the group; idempotent. */
  resume(): void;
}

/** Pauses the whole server (SIGSTOP to its process group) until resume(), or until the run's cleanup resumes it. */
export function stallServer(server: LocalDatabaseServer): Stall {
  const pgid = server.process.pid;
  process.kill(-pgid, 'SIGSTOP');
  let resumed = false;
  // A stopped group ignores SIGTERM: the cleanup resumes it first so that stopping it works.
  const unregister = onCleanup(`resume stalled ${server.kind} (pgid ${pgid})`, async () => resume());
  function resume(): void {
    if (resumed) return;
    resumed = true;
    unregister();
    try {
      process.kill(-pgid, 'SIGCONT');
    } catch {
      // the group is gone already
    }
  }
  return { resume };
}
