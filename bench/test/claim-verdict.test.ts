// The verdict rules on a paper's claim (bench/src/report/papers/verdict.ts) and the claims
// evaluated against synthetic compact results with known answers: each verdict, among them a
// CPU claim and a memory claim read from repetitions as the result document records them.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { claimVerdict, unitVerdict } from '../src/report/papers/verdict.ts';
import { metricOf } from '../src/report/papers/claims.ts';
import { evaluateClaims } from '../src/report/papers/evaluate.ts';
import type { Repetition } from '../src/record/result-document.ts';
import { compact, paper } from './fixtures/papers.ts';

const ci = (low: number, high: number) => ({ low, high });

test('a directional claim: reproduced, reversed, no difference, inconclusive', () => {
  assert.equal(unitVerdict({ better: 'first' }, { verdict: 'faster', ci: ci(1.5, 2.5) }), 'reproduced');
  assert.equal(unitVerdict({ better: 'second' }, { verdict: 'slower', ci: ci(0.4, 0.6) }), 'reproduced');
  assert.equal(unitVerdict({ better: 'first' }, { verdict: 'slower', ci: ci(0.4, 0.6) }), 'reversed');
  assert.equal(unitVerdict({ better: 'first' }, { verdict: 'no significant difference', ci: ci(0.9, 1.2) }), 'no difference');
  assert.equal(unitVerdict({ better: 'first' }, { verdict: 'descriptive', ci: ci(1.5, 2.5) }), 'inconclusive');
  assert.equal(unitVerdict({ better: 'first' }, { verdict: 'too few repetitions', ci: null }), 'inconclusive');
});

test('an equality claim: equivalent inside the margin, differs when significant, else no difference or inconclusive', () => {
  const equal = { equal: [0.95, 1.05] as const };
  assert.equal(unitVerdict(equal, { verdict: 'no significant difference', ci: ci(0.97, 1.03) }), 'equivalent');
  // Inside the margin though significant: the difference is smaller than the claim allows.
  assert.equal(unitVerdict(equal, { verdict: 'faster', ci: ci(1.01, 1.04) }), 'equivalent');
  assert.equal(unitVerdict(equal, { verdict: 'faster', ci: ci(1.2, 1.4) }), 'differs');
  assert.equal(unitVerdict(equal, { verdict: 'no significant difference', ci: ci(0.8, 1.3) }), 'no difference');
  assert.equal(unitVerdict(equal, { verdict: 'descriptive', ci: ci(0.8, 1.3) }), 'inconclusive');
});

test("a claim's verdict: the one its decided comparisons share, else mixed", () => {
  assert.equal(claimVerdict([]), 'not yet run');
  assert.equal(claimVerdict(['reproduced', 'reproduced', 'inconclusive']), 'reproduced');
  assert.equal(claimVerdict(['reproduced', 'reversed']), 'mixed');
  assert.equal(claimVerdict(['inconclusive', 'inconclusive']), 'inconclusive');
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

test('claims against a synthetic compact result: each verdict, the ratio and its interval beside the paper', () => {
  const byId = Object.fromEntries(evaluateClaims(paper, compact).map((r) => [r.claim.id, r]));
  assert.equal(byId['rps']!.verdict, 'reproduced');
  assert.ok(Math.abs(byId['rps']!.units[0]!.ratio - 2025 / 1025) < 1e-9);
  assert.ok(byId['rps']!.units[0]!.ci!.low > 1.5);
  assert.equal(byId['cpu']!.verdict, 'reproduced', 'lower CPU per request is better');
  assert.equal(byId['memory']!.verdict, 'reversed', 'higher peak RSS is worse');
  assert.equal(byId['tpm']!.verdict, 'equivalent');
  assert.equal(byId['sd']!.verdict, 'no difference');
  assert.equal(byId['few']!.verdict, 'inconclusive');
  assert.equal(byId['graal']!.verdict, 'cannot check here');
  assert.equal(byId['graal']!.reason, 'no GraalVM here');
  assert.equal(byId['missing']!.verdict, 'not yet run');
  assert.match(byId['missing']!.reason!, /none of its cases/);
  // Without a compact result every checkable claim is "not yet run".
  assert.deepEqual(
    evaluateClaims(paper, null).map((r) => r.verdict),
    ['not yet run', 'not yet run', 'not yet run', 'not yet run', 'not yet run', 'not yet run', 'cannot check here', 'not yet run'],
  );
});
