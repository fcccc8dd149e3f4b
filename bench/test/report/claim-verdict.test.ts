// The verdict rules on a paper's claim (bench/src/report/papers/verdict.ts), each given a known
// interval: against ×1 and the paper's ratio, equality within a margin, direction only, and
// generator-bound sides; then the claims evaluated against a synthetic compact result with
// known answers, among them a CPU claim and a memory claim read as the result document records them.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { boundInterval, claimVerdict, judgementCounts, judgementText, unitVerdict, type Expectation } from '../../src/report/papers/verdict.ts';
import { metricOf } from '../../src/report/papers/claims.ts';
import { evaluateClaims } from '../../src/report/papers/evaluate.ts';
import type { Repetition } from '../../src/record/result-document.ts';
import { compact, paper } from '../fixtures/papers.ts';

const ci = (low: number, high: number) => ({ low, high });
const say = (
  expect: Expectation,
  verdict: 'faster' | 'slower' | 'no significant difference' | 'descriptive',
  low: number,
  high: number,
  bound?: [number, number],
) => judgementText(unitVerdict(expect, { verdict, ci: ci(low, high), higherIsBetter: true, ...(bound ? { bound } : {}) }));

// Throughput, pair[0] twice pair[1]'s in the paper (×2), or pair[1] better by ×0.5.
const twice: Expectation = { better: 'first', ratio: [2, 2] };
const half: Expectation = { better: 'second', ratio: [0.5, 0.5] };

test("against the paper's size: reproduced, weaker than the paper, reversed, no effect of the paper's size, inconclusive", () => {
  assert.equal(say(twice, 'faster', 1.8, 2.3), 'reproduced', 'the interval holds ×2');
  assert.equal(say(twice, 'faster', 2.5, 3), 'reproduced', 'beyond the paper');
  assert.equal(say(twice, 'faster', 1.2, 1.3), 'weaker than the paper', 'significant, ×2 excluded');
  assert.equal(say(half, 'slower', 0.5, 0.7), 'reproduced');
  assert.equal(say(half, 'slower', 0.75, 0.9), 'weaker than the paper');
  assert.equal(say(twice, 'slower', 0.4, 0.6), 'reversed');
  assert.equal(say(twice, 'no significant difference', 0.9, 1.2), "no effect of the paper's size", 'holds ×1, excludes ×2');
  assert.equal(say(twice, 'no significant difference', 0.9, 2.4), 'inconclusive', 'holds ×1 and ×2');
  assert.equal(say(half, 'no significant difference', 0.45, 1.2), 'inconclusive');
  // A range: holding any of it reproduces; short of its near end is weaker.
  const range: Expectation = { better: 'first', ratio: [1.3, 1.9] };
  assert.equal(say(range, 'faster', 1.1, 1.35), 'reproduced');
  assert.equal(say(range, 'faster', 1.05, 1.25), 'weaker than the paper');
  // The rank test's verdict needs an interval that excludes ×1 too.
  assert.equal(say(twice, 'faster', 0.98, 2.2), 'inconclusive');
  assert.equal(say(twice, 'descriptive', 1.5, 2.5), 'inconclusive (too few repetitions)');
  assert.equal(judgementText(unitVerdict(twice, { verdict: 'too few repetitions', ci: null, higherIsBetter: true })), 'inconclusive (too few repetitions)');
});

test('direction only: reproduced or inconclusive, qualified; reversed stays reversed', () => {
  const direction: Expectation = { better: 'first' };
  assert.equal(say(direction, 'faster', 1.1, 1.3), 'reproduced (direction only)');
  assert.equal(say(direction, 'no significant difference', 0.9, 1.3), 'inconclusive (direction only)');
  assert.equal(say(direction, 'slower', 0.7, 0.9), 'reversed');
});

test('an equality claim: equivalent inside the margin, differs outside it, else not shown equal', () => {
  const equal: Expectation = { equal: [0.95, 1.05] };
  assert.equal(say(equal, 'no significant difference', 0.97, 1.03), 'equivalent');
  assert.equal(say(equal, 'faster', 1.01, 1.04), 'equivalent', 'a significant difference smaller than the margin');
  assert.equal(say(equal, 'faster', 1.2, 1.4), 'differs');
  assert.equal(say(equal, 'faster', 1.02, 1.4), 'not shown equal', 'significant but partly inside the margin');
  assert.equal(say(equal, 'no significant difference', 0.8, 1.3), 'not shown equal');
});

test("generator-bound: the bound side's interval opens in its favour; the worse side bound is inconclusive, the better side bound holds at least", () => {
  assert.deepEqual(boundInterval(ci(1.5, 2), true, [1, 0]), ci(1.5, Infinity), 'pair[0] bound on throughput: its true ratio may be higher');
  assert.deepEqual(boundInterval(ci(1.5, 2), true, [0, 1]), ci(0, 2));
  assert.deepEqual(boundInterval(ci(0.5, 0.8), false, [1, 0]), ci(0, 0.8), 'pair[0] bound on latency: its true ratio may be lower');
  assert.deepEqual(boundInterval(ci(0.5, 0.8), true, [2, 3]), ci(0, Infinity));
  // pair[0] measured better and was bound: its advantage is understated.
  assert.equal(say(twice, 'faster', 1.8, 2.3, [2, 0]), 'reproduced (at least)');
  assert.equal(say(twice, 'slower', 0.4, 0.6, [0, 1]), 'reversed (at least)');
  // The worse side was bound: its figure may be k6's.
  assert.equal(say(twice, 'faster', 1.8, 2.3, [0, 1]), 'inconclusive (generator-bound)');
  assert.equal(say(twice, 'slower', 0.4, 0.6, [1, 0]), 'inconclusive (generator-bound)');
  // Weaker than the paper, but the better side bound: it might reach the paper's size.
  assert.equal(say(twice, 'faster', 1.2, 1.3, [1, 0]), 'inconclusive (generator-bound)');
  // No effect of the paper's size, and the bound side is the one the paper found worse: unchanged.
  assert.equal(say(twice, 'no significant difference', 0.9, 1.2, [0, 1]), "no effect of the paper's size");
  assert.equal(say(twice, 'no significant difference', 0.9, 1.2, [1, 0]), 'inconclusive (generator-bound)');
  // An equality cannot be shown with a bound side.
  assert.equal(say({ equal: [0.9, 1.1] }, 'no significant difference', 0.97, 1.03, [1, 0]), 'inconclusive (generator-bound)');
  assert.equal(say({ equal: [0.9, 1.1] }, 'faster', 1.5, 1.7, [1, 0]), 'differs (at least)');
});

test("a claim's verdict: the one its comparisons share, else split with the counts", () => {
  assert.equal(claimVerdict([]), 'not yet run');
  assert.equal(claimVerdict([{ verdict: 'reproduced' }, { verdict: 'reproduced', qualifier: 'at least' }]), 'reproduced');
  assert.equal(claimVerdict([{ verdict: 'reproduced' }, { verdict: 'inconclusive' }]), 'split');
  assert.equal(
    judgementCounts([{ verdict: 'inconclusive' }, { verdict: 'reproduced', qualifier: 'at least' }, { verdict: 'reproduced', qualifier: 'at least' }]),
    '2 reproduced (at least), 1 inconclusive',
  );
});

test('CPU per request and peak RSS are read from the repetition (the server process tree), also for a request type', () => {
  const rep = {
    latencyMs: { mean: 10 },
    requests: 100,
    errors: { '500': 2 },
    throughput: 50,
    cpuPerRequestUs: { server: 420, database: 80 },
    server: { cpuPercentPeak: 90, cpuPercentMean: 60, rssBytesPeak: 256 * 2 ** 20 },
    requestTypes: { login: { requests: 10, errors: 1, latencyMs: { mean: 30 } } },
  } as unknown as Repetition;
  assert.equal(metricOf('cpu-per-request', rep), 420);
  assert.equal(metricOf('peak-rss', rep), 256);
  assert.equal(metricOf('peak-rss', rep, 'login'), 256);
  assert.equal(metricOf('error-rate', rep), 2);
  assert.equal(metricOf('error-rate', rep, 'login'), 10);
  assert.equal(metricOf('latency-mean', rep, 'login'), 30);
  assert.equal(metricOf('latency-mean', rep, 'logout'), undefined);
  assert.equal(metricOf('time-to-failure', rep), undefined);
});

test('claims against a synthetic compact result: each verdict, the ratio, its interval and detectable difference', () => {
  const byId = Object.fromEntries(evaluateClaims(paper, compact).map((r) => [r.claim.id, r]));
  const verdictOf = (id: string) => `${byId[id]!.verdict}: ${byId[id]!.units.map((u) => judgementText(u.judgement)).join(', ')}`;
  assert.equal(verdictOf('rps'), 'reproduced: reproduced (at least)');
  assert.ok(Math.abs(byId['rps']!.units[0]!.ratio - 2025 / 1025) < 1e-9);
  assert.ok(byId['rps']!.units[0]!.ci!.low > 1.5);
  assert.ok(byId['rps']!.units[0]!.mde! > 0 && byId['rps']!.units[0]!.mde! < 0.1, 'a tight comparison detects a few percent');
  assert.equal(verdictOf('cpu'), 'reproduced: reproduced', 'lower CPU per request is better');
  assert.equal(verdictOf('memory'), 'reversed: reversed', 'higher peak RSS is worse');
  assert.equal(verdictOf('tpm'), 'equivalent: equivalent');
  assert.equal(verdictOf('sd'), 'inconclusive: inconclusive (direction only)');
  assert.equal(verdictOf('few'), 'inconclusive: inconclusive (too few repetitions)');
  assert.equal(verdictOf('weak'), 'weaker than the paper: weaker than the paper');
  assert.equal(verdictOf('small'), "no effect of the paper's size: no effect of the paper's size");
  assert.equal(verdictOf('wide'), 'inconclusive: inconclusive');
  assert.equal(verdictOf('worse-bound'), 'inconclusive: inconclusive (generator-bound)');
  assert.equal(verdictOf('apart'), 'differs: differs');
  assert.equal(verdictOf('loose'), 'not shown equal: not shown equal');
  assert.equal(byId['graal']!.verdict, 'cannot check here');
  assert.equal(byId['graal']!.reason, 'no GraalVM here');
  assert.equal(byId['thousand']!.verdict, 'long run, not run here');
  assert.equal(byId['missing']!.verdict, 'not yet run');
  assert.match(byId['missing']!.reason!, /newer than run/);
  assert.equal(byId['recast']!.verdict, 'not yet run', 'figures of another metric are not read');
  assert.match(byId['recast']!.reason!, /another metric, cases or pair/);
  // Without a compact result every checkable claim is "not yet run".
  assert.deepEqual(
    evaluateClaims(paper, null).map((r) => r.verdict),
    paper.claims.claims.map((c) => (c.cannotCheck ? 'cannot check here' : c.longRun ? 'long run, not run here' : 'not yet run')),
  );
});
