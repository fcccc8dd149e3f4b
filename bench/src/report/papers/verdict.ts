// The rules that turn our comparison into a verdict on a paper's claim. A comparison is
// pair[0] against pair[1] on the claim's metric: the rank test over repetitions with its p
// adjusted over the claim's family (stats/verdict.ts: "faster" means pair[0] is better on
// the metric) and the bootstrap interval of the ratio of medians. The interval is placed
// against both no difference (×1) and the paper's ratio, so a verdict says what the interval
// supports and no more. Pure, so the unit test can give each rule a known interval.
import type { Interval, Verdict } from '../../stats/index.ts';

/**
 * What the paper reports, in pair[0] / pair[1] terms: which side is better with the paper's
 * ratio as [low, high] (undefined: a direction without a size), or equality within a margin.
 */
export type Expectation = { readonly better: 'first' | 'second'; readonly ratio?: readonly [number, number] } | { readonly equal: readonly [number, number] };

export type UnitVerdict =
  /** Significant in the paper's direction; the interval holds the paper's ratio or lies beyond it (or the paper gives no size). */
  | 'reproduced'
  /** Significant in the paper's direction, the paper's ratio excluded: a smaller effect than the paper's. */
  | 'weaker than the paper'
  /** Significant the other way. */
  | 'reversed'
  /** Not significant, and the interval excludes the paper's ratio. */
  | "no effect of the paper's size"
  /** The interval holds both ×1 and the paper's ratio, or there is too little to test, or a bound side could hide the answer. */
  | 'inconclusive'
  /** An equality claim whose interval lies inside the margin. */
  | 'equivalent'
  /** An equality claim with a significant difference whose interval lies outside the margin. */
  | 'differs'
  /** An equality claim whose interval is neither inside the margin nor a difference beyond it. */
  | 'not shown equal';

/**
 * Why a verdict is qualified: the paper gives no size; a side was generator-bound (its figure
 * understates it, so the verdict holds as a bound, "at least"); the bound changed the verdict
 * to inconclusive; too few repetitions to test.
 */
export type Qualifier = 'direction only' | 'at least' | 'generator-bound' | 'too few repetitions';

export interface UnitJudgement {
  readonly verdict: UnitVerdict;
  readonly qualifier?: Qualifier;
}

/** What one comparison gives the rules. */
export interface ComparisonFacts {
  readonly verdict: Verdict;
  readonly ci: Interval | null;
  /** Does a higher figure mean better (throughput) or worse (latency)? */
  readonly higherIsBetter: boolean;
  /** How many of each side's repetitions had k6 at its ceiling. */
  readonly bound?: readonly [number, number];
}

/** Where an interval stands against a range on the log scale, oriented so that the range lies above 0. */
interface Placement {
  readonly holdsOne: boolean;
  readonly holdsPaper: boolean;
  readonly beyondPaper: boolean;
  readonly shortOfPaper: boolean;
}

function place(ci: Interval, paper: readonly [number, number]): Placement {
  const sign = Math.log(paper[0]) > 0 ? 1 : -1;
  const [lo, hi] = [Math.log(ci.low) * sign, Math.log(ci.high) * sign].sort((x, y) => x - y) as [number, number];
  const [pLo, pHi] = [Math.log(paper[0]) * sign, Math.log(paper[1]) * sign].sort((x, y) => x - y) as [number, number];
  return { holdsOne: lo <= 0 && hi >= 0, holdsPaper: hi >= pLo && lo <= pHi, beyondPaper: lo > pHi, shortOfPaper: hi < pLo };
}

/**
 * The interval as a bound: a generator-bound side's figure understates it (k6 held its rate
 * or added to its latency), so its true figure may be any better one — the interval opens
 * without limit on that side's favour. Both bound: nothing is known.
 */
export function boundInterval(ci: Interval, higherIsBetter: boolean, bound: readonly [number, number] | undefined): Interval {
  if (!bound) return ci;
  // pair[0] better on a higher-is-better metric: the ratio rises.
  const firstUp = higherIsBetter;
  let { low, high } = ci;
  if (bound[0] > 0) [low, high] = firstUp ? [low, Infinity] : [0, high];
  if (bound[1] > 0) [low, high] = firstUp ? [0, high] : [low, Infinity];
  return { low, high };
}

/** The verdict from an interval alone (and the test's significance), before any bound. */
function judge(expect: Expectation, verdict: Verdict, ci: Interval): UnitJudgement {
  // Significant: the rank test declares it and the interval excludes ×1 (both, so a verdict never outruns its interval).
  const significant = (verdict === 'faster' || verdict === 'slower') && !(ci.low <= 1 && ci.high >= 1);
  if ('equal' in expect) {
    const [m0, m1] = expect.equal;
    if (ci.low >= m0 && ci.high <= m1) return { verdict: 'equivalent' };
    if (significant && (ci.low > m1 || ci.high < m0)) return { verdict: 'differs' };
    return { verdict: 'not shown equal' };
  }
  const firstBetter = verdict === 'faster';
  if (significant && firstBetter !== (expect.better === 'first')) return { verdict: 'reversed' };
  if (!expect.ratio) return significant ? { verdict: 'reproduced', qualifier: 'direction only' } : { verdict: 'inconclusive', qualifier: 'direction only' };
  const at = place(ci, expect.ratio);
  if (significant) return { verdict: at.shortOfPaper ? 'weaker than the paper' : 'reproduced' };
  if (at.shortOfPaper) return { verdict: "no effect of the paper's size" };
  return { verdict: 'inconclusive' };
}

/**
 * One comparison's verdict on the claim. A bound side widens the interval (boundInterval):
 * where that changes the verdict it is "inconclusive (generator-bound)" — the side that
 * measured worse was bound, so its figure may be k6's; where it does not, a decided verdict
 * holds "at least" (the better side was bound: its advantage is understated). An equality
 * claim with any bound side cannot be shown equal.
 */
export function unitVerdict(expect: Expectation, c: ComparisonFacts): UnitJudgement {
  if (c.verdict === 'too few repetitions' || c.verdict === 'descriptive' || !c.ci) return { verdict: 'inconclusive', qualifier: 'too few repetitions' };
  const measured = judge(expect, c.verdict, c.ci);
  const bounded = c.bound && (c.bound[0] > 0 || c.bound[1] > 0);
  if (!bounded) return measured;
  const wide = boundInterval(c.ci, c.higherIsBetter, c.bound);
  const asBound = judge(expect, c.verdict, wide);
  if (asBound.verdict !== measured.verdict) return { verdict: 'inconclusive', qualifier: 'generator-bound' };
  const decided = measured.verdict === 'reproduced' || measured.verdict === 'reversed' || measured.verdict === 'differs';
  return decided && !measured.qualifier ? { ...measured, qualifier: 'at least' } : measured;
}

/** A verdict as the page writes it: "reproduced (at least)". */
export const judgementText = (j: UnitJudgement): string => (j.qualifier ? `${j.verdict} (${j.qualifier})` : j.verdict);

export type ClaimVerdict = UnitVerdict | 'split' | 'failed here' | 'not yet run' | 'long run, not run here' | 'cannot check here';

/**
 * The claim's verdict from its comparisons (a case, or a case's request type, each): the one
 * they all share; "split" when they differ (the page gives the counts beside it); "not yet
 * run" when there is none. A paper's claim covers all its cases, so no comparison is dropped.
 */
export function claimVerdict(units: readonly UnitJudgement[]): ClaimVerdict {
  if (units.length === 0) return 'not yet run';
  const kinds = [...new Set(units.map((u) => u.verdict))];
  return kinds.length === 1 ? kinds[0]! : 'split';
}

/** Per verdict text, how many comparisons have it, most first: "2 reproduced (at least), 1 inconclusive". */
export function judgementCounts(units: readonly UnitJudgement[]): string {
  const counts = new Map<string, number>();
  for (const u of units) counts.set(judgementText(u), (counts.get(judgementText(u)) ?? 0) + 1);
  return [...counts]
    .sort((a, b) => b[1] - a[1])
    .map(([text, n]) => `${n} ${text}`)
    .join(', ');
}

/** Does the comparison decide the claim, one way or the other? (Not inconclusive, not an equality left unshown.) */
export const isDecided = (v: UnitVerdict): boolean => v !== 'inconclusive' && v !== 'not shown equal';

/** Does the verdict bear the paper out? (The README's count.) */
export const holds = (v: ClaimVerdict): boolean => v === 'reproduced' || v === 'equivalent';
