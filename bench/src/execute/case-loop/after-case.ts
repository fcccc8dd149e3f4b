// What runs once after a served case's repetitions: the wrk cross-check against each still
// running implementation, then, with the servers stopped (as the ceiling's floor), k6's floor
// at each implementation's rate. Neither takes anything from the case when it fails.
import type { PlannedCase } from '../../plan/api-module.ts';
import { checkStopping, type ServedCase } from './deps.ts';

const firstLine = (error: unknown): string => (error instanceof Error ? error.message.split('\n')[0]! : String(error));

export async function crossCheck<C extends PlannedCase>(s: ServedCase<C>): Promise<void> {
  const { c, deps, servers, outcomes } = s;
  if (!deps.crossCheck) return;
  for (const name of deps.impls) {
    const server = servers.get(name);
    if (!server || outcomes.get(name)!.failure) continue;
    try {
      const checked = await deps.crossCheck(c, server);
      if (checked) outcomes.get(name)!.crossCheck = checked;
    } catch (error) {
      console.log(`  ${s.label(name)}: no cross-check (${firstLine(error)})`);
    }
    checkStopping(deps);
  }
}

/** After the servers stopped. */
export async function floorAtRate<C extends PlannedCase>(s: ServedCase<C>): Promise<void> {
  const { c, deps, outcomes } = s;
  if (!deps.floorAtRate) return;
  for (const name of deps.impls) {
    const outcome = outcomes.get(name)!;
    if (outcome.failure || !outcome.repetitions.length) continue;
    try {
      const floor = await deps.floorAtRate(c, outcome.repetitions, s.label(name));
      if (floor) outcome.floorAtRate = floor;
    } catch (error) {
      console.log(`  ${s.label(name)}: no k6 floor at the case's rate (${firstLine(error)})`);
    }
    checkStopping(deps);
  }
}
