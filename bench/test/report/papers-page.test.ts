// docs/papers.md from the claims and the compact results alone: a synthetic paper's page
// with its verdicts, ratios, run and deviations, the page with nothing run yet, a compact
// result that does not validate, and the committed page equal to what make papers-page writes.
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { loadAllClaims, paperRange } from '../../src/report/papers/claims.ts';
import { evaluateClaims } from '../../src/report/papers/evaluate.ts';
import { paperEntries, papersPage, readCompact, writeCompact } from '../../src/report/papers/files.ts';
import { renderPapersPage, sizedDecided, summaryLine } from '../../src/report/papers/page.ts';
import type { ClaimReport } from '../../src/report/papers/evaluate.ts';
import { compact, paper } from '../fixtures/papers.ts';

const withLongRun = {
  ...paper,
  claims: { ...paper.claims, longRuns: [{ what: 'the long test', command: 'make bench IMPL=a,b API=toy PROFILE=paper', why: 'hours' }] },
};

test("a paper's page from its compact result: per claim the paper's words and figure, ours with the interval, the verdict with its counts; the run and its conditions; findings not checked; the deviations", () => {
  const page = renderPapersPage([{ paper: withLongRun, compact }]);
  assert.match(page, /^# The papers' claims, checked here/);
  assert.match(page, /## toy: A paper/);
  assert.match(page, /Findings: 17 \(16 claims \+ 1 not checked\)\./);
  assert.match(page, /#### `rps`: \*\*reproduced\*\* \(1 comparison: 1 reproduced \(at least\)\)/);
  assert.match(page, /#### `memory`: \*\*reversed\*\*/);
  assert.match(page, /#### `tpm`: \*\*equivalent\*\*/);
  assert.match(page, /#### `sd`: \*\*inconclusive\*\* \(1 comparison: 1 inconclusive \(direction only\)\)/);
  assert.match(page, /#### `weak`: \*\*weaker than the paper\*\*/);
  assert.match(page, /#### `graal`: \*\*cannot check here\*\*[\s\S]*Ours: no GraalVM here\./);
  // The paper's ratio beside ours with its interval, detectable difference and bound repetitions.
  assert.match(page, /The paper: x \(×2\); a better by ×2\./);
  assert.match(page, /b better, direction only \(the paper gives no figure\)/);
  assert.match(
    page,
    /\| `rest\/closed\/c1` \| 2,025 \(n=6\) \| 1,025 \(n=6\) \| ×1\.98 \[\d\.\d+, \d\.\d+\] \| ±\d+% \| [\d.]+ \([\d.]+\) \| a 1\/6, b 0\/6 \| reproduced \(at least\) \|/,
  );
  assert.match(
    page,
    /- `rest\/closed\/c1`: the interval is \d+ points wide against the paper's effect of 20%: it holds both ×1 and the paper's ratio\. The budget could not reach half the paper's effect \(±10%; detectable here ±\d+%\): at its spread, that would take about \d+ times its 6 repetitions a side \(\d+\)\./,
  );
  assert.match(page, /Measure it again: `make bench IMPL=a,b API=toy PROFILE=papers CASES='rest\/\*'`\./);
  // The conditions, the regime and the findings not checked.
  assert.match(page, /- Placement: the implementation on core 0, the database on core 0, k6 on core 1\./);
  assert.match(page, /load average 0\.4, 0\.6, 0\.8/);
  assert.match(page, /k6's ceiling here \(a no-op target\): 8,600 req\/s; the control's coefficient of variation 3%/);
  assert.match(
    page,
    /- a: 60 repetitions, 1 of them with k6 at its ceiling; work not checked \(a run before proof of work\); 12 errors of 100,000 requests \(503: 12\); no warm-up iterations/,
  );
  assert.match(
    page,
    /- b: 60 repetitions, 2 of them with k6 at its ceiling; work checked in 58 of them against the database's counters, 2 not checkable; no errors; warm-up steady in 3 of 4 cases\./,
  );
  assert.match(page, /- seconds here where the paper had milliseconds/);
  assert.match(page, /\| b uses less memory on Windows \| Table 9 \| needs a Windows host \|/);
  assert.match(page, /Run `2026-11-26T07-00-00Z` \(profile papers: 6 repetitions × 5 s/);
  assert.match(page, /commit `c0ffee`/);
  assert.match(page, /- one host/);
  assert.match(page, /- the long test: `make bench IMPL=a,b API=toy PROFILE=paper` \(hours\)\./);
  assert.match(
    summaryLine([{ paper, compact }]),
    /^17 findings of 1 papers, 16 of them claims checked here and 1 not checked; 1 of 1 papers run here: 3 of the claims reproduced or equivalent \([^)]*\)[^;]*; of the \d+ comparisons of claims that state a size, \d+ decided\.$/,
  );
  assert.equal(renderPapersPage([{ paper: withLongRun, compact }]), page, 'the page is a function of its inputs');
  // A compact result written before conditions were kept says so.
  const { conditions: _, ...older } = compact;
  assert.match(renderPapersPage([{ paper, compact: older }]), /Not kept by this compact result/);
});

test('with no compact result every checkable claim says "not yet run here"', () => {
  const page = renderPapersPage([{ paper, compact: null }]);
  assert.match(page, /\*\*Not yet run here\.\*\* `make papers` runs `make bench IMPL=a,b API=toy PROFILE=papers`/);
  assert.equal((page.match(/Ours: not yet run here\./g) ?? []).length, 14);
  assert.match(
    summaryLine([{ paper, compact: null }]),
    /none run here yet, so none reproduced so far \(14 not yet run, 1 long run, not run here, 1 cannot check here\)/,
  );
});

const dir = await mkdtemp(join(tmpdir(), 'fairbench-papers-'));
after(() => rm(dir, { recursive: true, force: true }));

test('a compact result is written, read back and validated', async () => {
  await writeCompact(compact, dir);
  assert.deepEqual(await readCompact('toy', dir), compact);
  assert.equal(await readCompact('other', dir), null);
  await writeFile(join(dir, 'bad.json'), JSON.stringify({ ...compact, api: 'bad', claims: [{ id: 'x', units: [{ case: 'c', a: [], b: [1] }] }] }));
  await assert.rejects(readCompact('bad', dir), /paper-result\.schema\.json/);
});

test('the committed docs/papers.md is what make papers-page writes from the committed compact results', async () => {
  const expected = renderPapersPage(await paperEntries(await loadAllClaims()));
  assert.equal(await readFile(papersPage, 'utf8'), expected, 'run make papers-page and commit docs/papers.md');
});

test("the committed page's comparisons say no more than their intervals: no 'no difference' that holds the paper's ratio, no 'reproduced' that excludes it", async () => {
  const entries = await paperEntries(await loadAllClaims());
  const page = await readFile(papersPage, 'utf8');
  assert.doesNotMatch(page, /\bno difference\b|\bmixed\b/, 'verdicts that ignore the effect size are gone');
  let checked = 0;
  for (const e of entries)
    for (const r of evaluateClaims(e.paper, e.compact)) {
      const range = paperRange(r.claim.expect);
      for (const u of r.units) {
        if (!u.ci || !range || 'equal' in r.claim.expect) continue;
        const holdsPaper = u.ci.low <= range[1] && u.ci.high >= range[0];
        const beyond = range[0] > 1 ? u.ci.low > range[1] : u.ci.high < range[0];
        const where = `${e.paper.api} ${r.claim.id} ${u.case} ${u.requestType ?? ''}`;
        const { verdict, qualifier } = u.judgement;
        if (verdict === 'reproduced' && qualifier !== 'at least')
          assert.ok(holdsPaper || beyond, `${where}: reproduced, yet ${JSON.stringify(u.ci)} excludes ×${range.join('–')}`);
        if (verdict === "no effect of the paper's size" || verdict === 'weaker than the paper')
          assert.ok(!holdsPaper, `${where}: ${verdict}, yet ${JSON.stringify(u.ci)} holds ×${range.join('–')}`);
        if (holdsPaper && u.ci.low <= 1 && u.ci.high >= 1) assert.equal(verdict, 'inconclusive', `${where}: the interval holds both ×1 and the paper's ratio`);
        checked++;
      }
    }
  assert.ok(checked > 20, `only ${checked} comparisons with a paper's ratio on the page`);
});

test('a claim over process pairs is judged on them: Student’s t over each start’s paired figures, not the pooled repetitions', () => {
  // Claim 'rps' (a twice as fast): 3 starts whose a/b ratios are 1.9, 2.0 and 2.1 in every slice.
  const starts = [1.9, 2.0, 2.1].map((r) => ({ a: [100 * r, 110 * r], b: [100, 110] }));
  const withStarts = {
    ...compact,
    claims: compact.claims.map((c) =>
      c.id === 'rps' ? { ...c, units: [{ case: 'rest/closed/c1', a: starts.flatMap((s) => s.a), b: starts.flatMap((s) => s.b), processPairs: starts }] } : c,
    ),
  };
  const [report] = evaluateClaims(paper, withStarts).filter((r) => r.claim.id === 'rps');
  const unit = report!.units[0]!;
  assert.ok(Math.abs(unit.ratio - Math.cbrt(1.9 * 2.0 * 2.1)) < 1e-9, `the mean of the starts' log ratios: ${unit.ratio}`);
  // t on 2 df: the interval is the starts' spread (±4.303 · SE), not the slices' (none within a start).
  assert.ok(unit.ci!.low > 1.7 && unit.ci!.high < 2.3 && unit.ci!.high - unit.ci!.low > 0.2, `${unit.ci!.low}–${unit.ci!.high}`);
  assert.equal(report!.verdict, 'reproduced');
});

test('a figure of zero in a process pair (an error rate of none) is judged on the repetitions by rank, not by a ratio of zero', () => {
  // One side errs in every slice, the other never (the sports paper's load-errors claim).
  const starts = [1, 2, 3].map((k) => ({ a: [0.5 * k, 0.6 * k], b: [0, 0] }));
  const withZeros = {
    ...compact,
    claims: compact.claims.map((c) =>
      c.id === 'rps' ? { ...c, units: [{ case: 'rest/closed/c1', a: starts.flatMap((s) => s.a), b: starts.flatMap((s) => s.b), processPairs: starts }] } : c,
    ),
  };
  const [report] = evaluateClaims(paper, withZeros).filter((r) => r.claim.id === 'rps');
  const unit = report!.units[0]!;
  assert.deepEqual(unit.n, [6, 6], 'the repetitions, not the starts');
  assert.equal(unit.processPairs, undefined);
  assert.ok(unit.p !== null && unit.p < 0.05, `the rank test tells them apart: p ${unit.p}`);
});

test('the decided share counts the comparisons of claims that state a size (a ratio or a margin), decided when neither inconclusive nor an equality left unshown', () => {
  const report = (expect: object, verdicts: string[]) =>
    ({ claim: { expect }, units: verdicts.map((verdict) => ({ judgement: { verdict } })) }) as unknown as ClaimReport;
  const reports = [
    report({ better: 'a', ratio: 2 }, ['inconclusive', 'reproduced', "no effect of the paper's size"]),
    report({ better: 'a', directionOnly: 'no figure' }, ['reproduced', 'inconclusive']),
    report({ equal: [0.9, 1.1], ratio: 1 }, ['not shown equal', 'equivalent']),
  ];
  assert.deepEqual(sizedDecided(reports), { sized: 5, decided: 3 });
});
