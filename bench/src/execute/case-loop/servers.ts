// The implementations of a served case: started before it (restarted before each repetition
// of a case that ends in overload, and for each process pair), stopped for the rest of it when one fails.
import type { PlannedCase } from '../../plan/api-module.ts';
import { asFailure } from '../../load/failure.ts';
import { Interrupted, type CaseLoopDeps, type LoopServer, type Outcome, type ServedCase } from './deps.ts';
import { roundOrder } from './order.ts';

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

/**
 * Start k of every implementation of the case that has not failed (process pairs): all stopped
 * first, then started, in the given order in odd starts and reversed in even ones, so that
 * which process is the older one alternates over the pairs.
 */
export async function restartAll<C extends PlannedCase>(s: ServedCase<C>, k: number): Promise<void> {
  const going = roundOrder(
    s.deps.impls.filter((name) => !s.outcomes.get(name)!.failure),
    k,
  );
  for (const name of going) await drop(s.servers, name);
  for (const name of going) await start(s.servers, name, s.outcomes.get(name)!, s.deps);
}
