// The verdict on one quantity (throughput, a latency statistic) of implementation A against
// B, and of a family of such comparisons. The rule, checked by bench/test/stats/calibration.test.ts
// on simulated A/A comparisons:
// - the test is the exact Mann–Whitney rank test of the two groups of repetitions (its
//   level holds at any n; the bootstrap interval of a ratio of medians is too narrow with
//   few repetitions: 11% false differences at 3 against 3 instead of 5%);
// - its p-values are adjusted over the family (Benjamini–Hochberg, multiplicity.ts) and a
//   difference is declared where the adjusted p ≤ ALPHA; the raw verdict is kept beside it;
// - the direction is the rank test's, and the ratio of the medians must agree with it
//   (else no verdict); the size is the ratio with its bootstrap interval, which is shown
//   beside the verdict and is no input to it;
// - below MIN_VERDICT_REPETITIONS in either group there is no test: the interval is
//   shown as "descriptive" (below MIN_REPETITIONS there is not even an interval);
// - paired slices take the signed-rank test (paired.ts), process pairs Student's t on one
//   figure per pair of processes (process-pairs.ts): only the test and the interval differ.
import { bootstrapRatioOfMedians, MIN_REPETITIONS, type BootstrapOptions, type RatioEstimate } from './bootstrap.ts';
import { median } from './descriptive.ts';
import { benjaminiHochberg } from './multiplicity.ts';
import { mannWhitney, type RankTest } from './rank-test.ts';
import { unpairedMde } from './precision.ts';

export const ALPHA = 0.05;
/**
 * From this many repetitions per group a comparison gets a verdict. At 3 against 3 the
 * rank test's smallest two-sided p is 0.1 (nothing can be shown at 5%); at 4 against 4
 * it is 0.029, which no family of more than one survives; at 5 against 5, 0.0079.
 */
export const MIN_VERDICT_REPETITIONS = 5;

export type Verdict = 'faster' | 'slower' | 'no significant difference' | 'descriptive' | 'too few repetitions';

/** What a verdict is decided on: the medians, their ratio and the rank test (no interval). */
export interface RankComparison {
  nA: number;
  nB: number;
  medianA: number;
  medianB: number;
  /** median(A) / median(B) */
  ratio: number;
  /** throughput: yes (a higher A is faster); latency: no. */
  higherIsBetter: boolean;
  /** The test's p and direction: a rank test's (rank-test.ts, paired.ts), or across process pairs Student's t (process-pairs.ts); null below MIN_VERDICT_REPETITIONS in either group. */
  test: Pick<RankTest, 'p' | 'direction'> | null;
  /** The verdict from the raw p-value: this comparison alone, as if it were the only one. */
  rawVerdict: Verdict;
}

/**
 * A comparison as the report shows it: the verdict's inputs and the ratio's bootstrap interval,
 * and its precision: `mde`, the smallest relative difference it could have detected
 * (precision.ts; null when the spread cannot say), which is no input to the verdict.
 */
export type ComparisonEstimate = RatioEstimate &
  RankComparison & { mde?: number | null; paired?: true; pairs?: number; processPairs?: number; betweenSd?: number; withinSd?: number | null };

export interface Adjusted {
  /** The p-value adjusted over the family; null without a test. */
  pAdjusted: number | null;
  /** The verdict the report states: from the adjusted p-value. */
  verdict: Verdict;
  /** How many tested comparisons the family has. */
  familySize: number;
}

/** The verdict of one comparison at p (raw or adjusted). */
export function decide(c: RankComparison, p: number | null): Verdict {
  if (c.nA < MIN_REPETITIONS || c.nB < MIN_REPETITIONS) return 'too few repetitions';
  if (!c.test || p === null) return 'descriptive';
  const { direction } = c.test;
  const agrees = (direction === 1 && c.ratio > 1) || (direction === -1 && c.ratio < 1);
  if (p > ALPHA || !agrees) return 'no significant difference';
  return (direction === 1) === c.higherIsBetter ? 'faster' : 'slower';
}

/** The medians, the rank test and the raw verdict of A against B. */
export function testGroups(a: readonly number[], b: readonly number[], higherIsBetter: boolean): RankComparison {
  if (a.length === 0 || b.length === 0) throw new Error('testGroups: an empty group');
  const medianA = median(a);
  const medianB = median(b);
  const test = a.length >= MIN_VERDICT_REPETITIONS && b.length >= MIN_VERDICT_REPETITIONS ? mannWhitney(a, b) : null;
  const c: RankComparison = { nA: a.length, nB: b.length, medianA, medianB, ratio: medianA / medianB, higherIsBetter, test, rawVerdict: 'descriptive' };
  return { ...c, rawVerdict: decide(c, test?.p ?? null) };
}

/** testGroups with the bootstrap interval of the ratio of medians beside it. */
export function compareGroups(a: readonly number[], b: readonly number[], options: BootstrapOptions & { higherIsBetter: boolean }): ComparisonEstimate {
  return { ...bootstrapRatioOfMedians(a, b, options), ...testGroups(a, b, options.higherIsBetter), mde: unpairedMde(a, b) };
}

/** The family's verdicts, in its order: the tested comparisons' p-values adjusted together. */
export function adjustFamily<T extends RankComparison>(family: readonly T[]): (T & Adjusted)[] {
  const tested = family.flatMap((c, i) => (c.test ? [{ i, p: c.test.p }] : []));
  const adjusted = benjaminiHochberg(tested.map((t) => t.p));
  const byIndex = new Map(tested.map((t, k) => [t.i, adjusted[k]!]));
  return family.map((c, i) => {
    const pAdjusted = byIndex.get(i) ?? null;
    return { ...c, pAdjusted, verdict: decide(c, pAdjusted), familySize: tested.length };
  });
}

export const declared = (v: Verdict): boolean => v === 'faster' || v === 'slower';

/** How many of a family's comparisons were declared, raw and adjusted: the A/A calibration's figures. */
export function countDeclared(family: readonly (RankComparison & Adjusted)[]): { tested: number; raw: number; adjusted: number } {
  return {
    tested: family.filter((c) => c.test).length,
    raw: family.filter((c) => declared(c.rawVerdict)).length,
    adjusted: family.filter((c) => declared(c.verdict)).length,
  };
}
