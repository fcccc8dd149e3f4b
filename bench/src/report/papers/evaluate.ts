// Each claim against a compact result: per comparison our medians, the ratio pair[0] /
// pair[1] with its bootstrap interval, its detectable difference and the rank test (over
// process pairs where the run had them: the t interval and test of process-pairs.ts), the
// claim's comparisons adjusted as one family (stats/verdict.ts), then the verdict rules
// (verdict.ts) against both ×1 and the paper's ratio.
import { adjustFamily, compareGroups, compareProcessPairs, type Interval } from '../../stats/index.ts';
import { claimDefinition, METRICS, pairOf, paperRange, type Claim, type PaperClaims } from './claims.ts';
import type { CompactResult } from './compact.ts';
import { claimVerdict, unitVerdict, type ClaimVerdict, type Expectation, type UnitJudgement } from './verdict.ts';

export interface UnitReport {
  case: string;
  requestType?: string;
  n: readonly [number, number];
  medians: readonly [number, number];
  /** median(pair[0]) / median(pair[1]); NaN when both are 0 (no errors on either side). */
  ratio: number;
  ci: Interval | null;
  /** The smallest relative difference this comparison could detect (stats/precision.ts); null when its spread cannot say. */
  mde: number | null;
  /** Over how many process pairs (the comparison's unit) where the run had them; absent: over repetitions. */
  processPairs?: number;
  p: number | null;
  pAdjusted: number | null;
  judgement: UnitJudgement;
  /** How many of each side's repetitions were generator-bound; absent when none. */
  bound?: readonly [number, number];
}

export interface ClaimReport {
  claim: Claim;
  pair: readonly [string, string];
  verdict: ClaimVerdict;
  /** Why there is no comparison: the claim's own cannotCheck or longRun, or what the run lacked. */
  reason?: string;
  units: UnitReport[];
}

export function expectationOf(claim: Claim, pair: readonly [string, string]): Expectation {
  if ('equal' in claim.expect) return { equal: claim.expect.equal };
  const ratio = paperRange(claim.expect);
  return { better: claim.expect.better === pair[0] ? 'first' : 'second', ...(ratio ? { ratio } : {}) };
}

export function evaluateClaims(paper: PaperClaims, compact: CompactResult | null): ClaimReport[] {
  return paper.claims.claims.map((claim): ClaimReport => {
    const pair = pairOf(paper.claims, claim);
    if (claim.cannotCheck) return { claim, pair, verdict: 'cannot check here', reason: claim.cannotCheck, units: [] };
    if (claim.longRun) return { claim, pair, verdict: 'long run, not run here', reason: claim.longRun, units: [] };
    if (!compact) return { claim, pair, verdict: 'not yet run', reason: 'not yet run here', units: [] };
    const measured = compact.claims.find((c) => c.id === claim.id);
    if (!measured) return { claim, pair, verdict: 'not yet run', reason: `not yet run here (the claim is newer than run ${compact.runId})`, units: [] };
    if (measured.definition !== claimDefinition(paper.claims, claim))
      return {
        claim,
        pair,
        verdict: 'not yet run',
        reason: `not yet run as encoded now (run ${compact.runId} measured another metric, cases or pair for it)`,
        units: [],
      };
    const units = measured.units;
    if (units.length === 0 && measured.failed?.length)
      return {
        claim,
        pair,
        verdict: 'failed here',
        reason: `run ${compact.runId} gave no figure for both: ${measured.failed.map((f) => `${f.side} ${f.case}: ${f.reason}`).join('; ')}`,
        units: [],
      };
    if (units.length === 0)
      return { claim, pair, verdict: 'not yet run', reason: `none of its cases (${claim.cases}) has figures for both in run ${compact.runId}`, units: [] };
    const { higherIsBetter } = METRICS[claim.metric];
    const key = (u: (typeof units)[number]) => `${paper.api}|claim|${claim.id}|${u.case}|${u.requestType ?? ''}`;
    // Over process pairs where the run had them (the comparison's unit), else the two groups of
    // repetitions; also where a figure is zero (an error rate of none): a ratio of it is no figure,
    // and the rank test over the repetitions still tells which is better.
    const family = adjustFamily(
      units.map((u) =>
        u.processPairs && u.processPairs.every((p) => [...p.a, ...p.b].every((x) => Number.isFinite(x) && x > 0))
          ? compareProcessPairs(u.processPairs, { higherIsBetter })
          : compareGroups(u.a, u.b, { key: key(u), higherIsBetter }),
      ),
    );
    const expect = expectationOf(claim, pair);
    const reports = units.map((u, i): UnitReport => {
      const c = family[i]!;
      return {
        case: u.case,
        ...(u.requestType ? { requestType: u.requestType } : {}),
        n: [c.nA, c.nB],
        medians: [c.medianA, c.medianB],
        ratio: c.ratio,
        ci: c.ci,
        mde: c.mde ?? null,
        ...(c.processPairs ? { processPairs: c.processPairs } : {}),
        p: c.test?.p ?? null,
        pAdjusted: c.pAdjusted,
        judgement: unitVerdict(expect, { verdict: c.verdict, ci: c.ci, higherIsBetter, ...(u.bound ? { bound: u.bound } : {}) }),
        ...(u.bound ? { bound: u.bound } : {}),
      };
    });
    return { claim, pair, verdict: claimVerdict(reports.map((r) => r.judgement)), units: reports };
  });
}
