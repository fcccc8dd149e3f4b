// The rules that turn our comparison into a verdict on a paper's claim. A comparison is
// pair[0] against pair[1] on the claim's metric, from the rank test over repetitions with
// its p adjusted over the claim's family (stats/verdict.ts): "faster" means pair[0] is
// better on the metric. Pure, so the unit test can give each rule a known result.
import type { Interval, Verdict } from '../../stats/index.ts';

/** What the paper reports: which of the pair is better, or that they are equal within a margin. */
export type Expectation = { readonly better: 'first' | 'second' } | { readonly equal: readonly [number, number] };

export type UnitVerdict =
  /** Significant in the paper's direction. */
  | 'reproduced'
  /** Significant the other way. */
  | 'reversed'
  /** An equality claim whose ratio's interval lies inside the declared margin. */
  | 'equivalent'
  /** An equality claim with a significant difference. */
  | 'differs'
  /** Tested, no significant difference (and, for an equality claim, an interval wider than the margin). */
  | 'no difference'
  /** Too few repetitions to test. */
  | 'inconclusive';

export type ClaimVerdict = UnitVerdict | 'mixed' | 'not yet run' | 'cannot check here';

/** One comparison's verdict on the claim. */
export function unitVerdict(expect: Expectation, c: { readonly verdict: Verdict; readonly ci: Interval | null }): UnitVerdict {
  const significant = c.verdict === 'faster' || c.verdict === 'slower';
  if ('equal' in expect) {
    if (c.ci && c.ci.low >= expect.equal[0] && c.ci.high <= expect.equal[1]) return 'equivalent';
    if (significant) return 'differs';
    return c.verdict === 'no significant difference' ? 'no difference' : 'inconclusive';
  }
  if (!significant) return c.verdict === 'no significant difference' ? 'no difference' : 'inconclusive';
  const firstBetter = c.verdict === 'faster';
  return firstBetter === (expect.better === 'first') ? 'reproduced' : 'reversed';
}

/**
 * The claim's verdict from its comparisons (a case, or a case's request type, each): the one
 * every decided comparison shares, "mixed" when they disagree, "inconclusive" when none was
 * decided, "not yet run" when there is none.
 */
export function claimVerdict(units: readonly UnitVerdict[]): ClaimVerdict {
  if (units.length === 0) return 'not yet run';
  const decided = [...new Set(units.filter((u) => u !== 'inconclusive'))];
  if (decided.length === 0) return 'inconclusive';
  return decided.length === 1 ? decided[0]! : 'mixed';
}

/** Does the verdict bear the paper out? (The README's count.) */
export const holds = (v: ClaimVerdict): boolean => v === 'reproduced' || v === 'equivalent';
