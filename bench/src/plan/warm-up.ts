// Warm-up iterations: unrecorded repetitions of a served case before its recorded ones, as
// JMH runs them and as Georges, Buytaert and Eeckhout ("Statistically Rigorous Java
// Performance Evaluation", OOPSLA 2007) ask for a steady state. Each is a whole repetition
// (data reset, idle wait, the same load), so a JIT that compiles only when the load pauses
// (bench/docs/warm-up.md: Spring on a saturated core) gets those pauses before the measurement,
// not in it. Every implementation follows the same rule; how many iterations it needed is
// recorded with their rates.

/** The profile's rule (bench/profiles.yaml `warmupIterations`). */
export interface WarmupIterations {
  /** The most iterations per implementation and case; 0: none. Never 1: the rule compares two. */
  readonly max: number;
  /** The warm-up ends at an iteration whose rate is less than this much (%) above the previous one's. */
  readonly steadyWithinPercent: number;
}

export const NO_WARMUP_ITERATIONS: WarmupIterations = { max: 0, steadyWithinPercent: 0 };

/** True once the last rate rose less than `withinPercent` above the one before it (a fall is steady too). */
export function isSteady(rates: readonly number[], withinPercent: number): boolean {
  if (rates.length < 2) return false;
  const [before, last] = rates.slice(-2) as [number, number];
  return last < before * (1 + withinPercent / 100);
}

/** Iterations the plan counts on per served step: the fewest the rule can stop at. */
export function plannedWarmups(rule: WarmupIterations): number {
  return Math.min(rule.max, 2);
}
