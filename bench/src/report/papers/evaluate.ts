// Each claim against a compact result: per comparison our medians, the ratio pair[0] /
// pair[1] with its bootstrap interval and the rank test, the claim's comparisons adjusted
// as one family (stats/verdict.ts), then the verdict rules (verdict.ts).
import { adjustFamily, compareGroups, type Interval } from '../../stats/index.ts';
import { METRICS, pairOf, type Claim, type PaperClaims } from './claims.ts';
import type { CompactResult } from './compact.ts';
import { claimVerdict, unitVerdict, type ClaimVerdict, type Expectation, type UnitVerdict } from './verdict.ts';

export interface UnitReport {
  case: string;
  requestType?: string;
  n: readonly [number, number];
  medians: readonly [number, number];
  /** median(pair[0]) / median(pair[1]); NaN when both are 0 (no errors on either side). */
  ratio: number;
  ci: Interval | null;
  p: number | null;
  pAdjusted: number | null;
  verdict: UnitVerdict;
  /** How many of each side's repetitions were generator-bound; absent when none. */
  bound?: readonly [number, number];
}

export interface ClaimReport {
  claim: Claim;
  pair: readonly [string, string];
  verdict: ClaimVerdict;
  /** Why there is no comparison: the claim's own cannotCheck, or what the run lacked. */
  reason?: string;
  units: UnitReport[];
}

export function expectationOf(claim: Claim, pair: readonly [string, string]): Expectation {
  return 'equal' in claim.expect ? { equal: claim.expect.equal } : { better: claim.expect.better === pair[0] ? 'first' : 'second' };
}

export function evaluateClaims(paper: PaperClaims, compact: CompactResult | null): ClaimReport[] {
  return paper.claims.claims.map((claim): ClaimReport => {
    const pair = pairOf(paper.claims, claim);
    if (claim.cannotCheck) return { claim, pair, verdict: 'cannot check here', reason: claim.cannotCheck, units: [] };
    if (!compact) return { claim, pair, verdict: 'not yet run', reason: 'not yet run here', units: [] };
    const units = compact.claims.find((c) => c.id === claim.id)?.units ?? [];
    if (units.length === 0)
      return { claim, pair, verdict: 'not yet run', reason: `none of its cases (${claim.cases}) has figures for both in run ${compact.runId}`, units: [] };
    const { higherIsBetter } = METRICS[claim.metric];
    const key = (u: (typeof units)[number]) => `${paper.api}|claim|${claim.id}|${u.case}|${u.requestType ?? ''}`;
    const family = adjustFamily(units.map((u) => compareGroups(u.a, u.b, { key: key(u), higherIsBetter })));
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
        p: c.test?.p ?? null,
        pAdjusted: c.pAdjusted,
        verdict: unitVerdict(expect, c),
        ...(u.bound ? { bound: u.bound } : {}),
      };
    });
    return { claim, pair, verdict: claimVerdict(reports.map((r) => r.verdict)), units: reports };
  });
}
