// A served case's repetitions as separate loads: round after round, each implementation
// loaded once per round in the round's order (randomized interleaved trials, or A B, B A),
// every load with its own k6, reset and idle wait. A case that ends in overload
// (freshServerEachRepetition) restarts each implementation before each repetition.
import type { PlannedCase } from '../../plan/api-module.ts';
import { processField, type ProcessShare, type ServedCase } from './deps.ts';
import { orderOf } from './order.ts';
import { loadOn } from './repetition.ts';
import { drop, start } from './servers.ts';

/** Rounds share.first to share.last; `warmed`: warm-up iterations ran, so no repetition is a freshly started implementation's first load. */
export async function separateRepetitions<C extends PlannedCase>(s: ServedCase<C>, warmed: boolean, share: ProcessShare): Promise<void> {
  const { c, deps, servers, outcomes } = s;
  const { impls } = deps;
  const fresh = c.freshServerEachRepetition === true;
  for (let r = share.first; r <= share.last; r++) {
    for (const [place, name] of orderOf(deps, c, r).entries()) {
      const outcome = outcomes.get(name)!;
      if (fresh && r > 1 && !outcome.failure) await start(servers, name, outcome, deps);
      if (!servers.has(name) || outcome.failure) continue;
      // Without warm-up iterations the first repetition is the freshly started implementation's first load (bench/profiles.yaml: firstWarmupSeconds).
      const first = (r === share.first || fresh) && !warmed;
      const step = s.firstStep + impls.indexOf(name);
      const result = await loadOn(s, name, r, first, () => deps.events?.emit('load-begin', { step, repetition: r, label: s.label(name) }));
      if (result.rep) outcome.repetitions.push({ ...result.rep, ...(impls.length > 1 ? { order: place + 1 } : {}), ...processField(share) });
      if (result.failure) outcome.failure = { ...result.failure, repetition: r };
      // A failed server must not load the machine while the others go on; an overloaded one's
      // abandoned work must not run beside the next repetition, another implementation's included.
      if (result.failure || fresh) await drop(servers, name);
    }
  }
}
