// The implementations' order in each round of a case: randomized interleaved trials where
// the run names them (plan/interleave.ts), else A B, B A alternation.
import type { PlannedCase } from '../../plan/api-module.ts';
import { interleavedOrder } from '../../plan/interleave.ts';
import type { CaseLoopDeps } from './deps.ts';

/** The order of the implementations in repetition r (1-based): as given in odd repetitions, reversed in even ones. */
export function roundOrder<T>(impls: readonly T[], r: number): T[] {
  return r % 2 === 1 ? [...impls] : [...impls].reverse();
}

/** The implementations' order in round r of case c (deps.orderKey names the random draws). */
export function orderOf<C extends PlannedCase>(deps: CaseLoopDeps<C>, c: C, r: number): string[] {
  return deps.orderKey !== undefined ? interleavedOrder(deps.impls, r, `${deps.orderKey}|${c.id}`) : roundOrder(deps.impls, r);
}
