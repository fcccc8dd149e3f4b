// The implementations of a served case: started before it (restarted before each repetition
// of a case that ends in overload), stopped for the rest of it when one fails.
import type { PlannedCase } from '../../plan/api-module.ts';
import { asFailure } from '../../load/failure.ts';
import { Interrupted, type CaseLoopDeps, type LoopServer, type Outcome } from './deps.ts';

/** Starts an implementation for the case; one that does not start fails the case for it. */
export async function start<C extends PlannedCase>(servers: Map<string, LoopServer>, name: string, outcome: Outcome, deps: CaseLoopDeps<C>): Promise<void> {
  try {
    servers.set(name, await deps.startServer(name));
  } catch (error) {
    if (deps.stopping()) throw new Interrupted();
    outcome.failure = asFailure('implementation', error, `${name} did not start: `);
  }
}

/** Stops an implementation for the rest of the case, or until start() brings it back. */
export async function drop(servers: Map<string, LoopServer>, name: string): Promise<void> {
  const server = servers.get(name);
  servers.delete(name);
  await server?.stop();
}
