// The warm-up iterations of a served case (plan/warm-up.ts): rounds alternating like the
// repetitions, each implementation loaded — the same load as a repetition, the same reset
// and idle wait before it — until its rate is steady or it has had `max` iterations. Each
// start of the implementations (process pairs) warms afresh: a new process has a cold JIT.
// Recorded apart from the repetitions; a failure in one is the case's failure for that
// implementation.
import type { PlannedCase } from '../../plan/api-module.ts';
import { isSteady } from '../../plan/warm-up.ts';
import type { Repetition } from '../../record/result-document.ts';
import { processField, type ProcessShare, type ServedCase } from './deps.ts';
import { roundOrder } from './order.ts';
import { loadOn } from './repetition.ts';
import { drop } from './servers.ts';

/** Warms the implementations of this start (`share`); their warm-up records every start's iterations, steady only if each start's was. */
export async function warmUp<C extends PlannedCase>(s: ServedCase<C>, share: ProcessShare): Promise<void> {
  const { deps, servers, outcomes } = s;
  const { max, steadyWithinPercent } = deps.options.warmupIterations!;
  const warming = new Set(deps.impls.filter((name) => servers.has(name) && !outcomes.get(name)!.failure));
  const thisStart = new Map<string, Repetition[]>([...warming].map((name) => [name, []]));
  for (const name of warming) outcomes.get(name)!.warmup ??= { iterations: [], steady: true };
  for (let k = 1; k <= max && warming.size > 0; k++) {
    // Each start begins with the other implementation than the start before (share.k): which one
    // warms last, right before the measured load, alternates over the process pairs.
    for (const name of roundOrder(deps.impls, k + share.k - 1)) {
      if (!servers.has(name) || !warming.has(name)) continue;
      const outcome = outcomes.get(name)!;
      const step = s.firstStep + deps.impls.indexOf(name);
      const result = await loadOn(s, name, k, k === 1, () => deps.events?.emit('warmup-begin', { step, iteration: k, max, label: s.label(name) }));
      const warmup = outcome.warmup!;
      if (result.rep) {
        warmup.iterations.push({ ...result.rep, ...processField(share) });
        thisStart.get(name)!.push(result.rep);
      }
      if (result.failure) {
        outcome.failure = { ...result.failure, warmupIteration: k };
        warmup.steady = false;
        warming.delete(name);
        await drop(servers, name);
        continue;
      }
      if (
        isSteady(
          thisStart.get(name)!.map((i) => i.throughput),
          steadyWithinPercent,
        )
      )
        warming.delete(name);
    }
  }
  for (const name of warming) {
    outcomes.get(name)!.warmup!.steady = false;
    const rates = thisStart
      .get(name)!
      .map((i) => Math.round(i.throughput))
      .join(', ');
    console.log(`  ${s.label(name)}: still rising after ${max} warm-up iterations (${rates} req/s); measuring anyway (recorded: steady false)`);
  }
  for (const name of deps.impls) {
    const warmup = outcomes.get(name)!.warmup;
    if (warmup && warmup.iterations.length === 0) delete outcomes.get(name)!.warmup;
  }
}
