// docs/papers.md from the claims and the compact results alone: a synthetic paper's page
// with its verdicts, ratios, run and deviations, the page with nothing run yet, a compact
// result that does not validate, and the committed page equal to what make papers-page writes.
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { loadAllClaims } from '../src/report/papers/claims.ts';
import { paperEntries, papersPage, readCompact, writeCompact } from '../src/report/papers/files.ts';
import { renderPapersPage, summaryLine } from '../src/report/papers/page.ts';
import { compact, paper } from './fixtures/papers.ts';

const withLongRun = {
  ...paper,
  claims: { ...paper.claims, longRuns: [{ what: 'the long test', command: 'make bench IMPL=a,b API=toy PROFILE=paper', why: 'hours' }] },
};

test("a paper's page from its compact result: per claim the paper's words and figure, ours with the interval, the verdict; the run; the deviations", () => {
  const page = renderPapersPage([{ paper: withLongRun, compact }]);
  assert.match(page, /^# The papers' claims, checked here/);
  assert.match(page, /## toy: A paper/);
  assert.match(page, /#### `rps`: \*\*reproduced\*\*/);
  assert.match(page, /#### `memory`: \*\*reversed\*\*/);
  assert.match(page, /#### `tpm`: \*\*equivalent\*\*/);
  assert.match(page, /#### `sd`: \*\*no difference\*\*/);
  assert.match(page, /#### `graal`: \*\*cannot check here\*\*[\s\S]*Ours: no GraalVM here\./);
  // The paper's ratio beside ours with its interval.
  assert.match(page, /The paper: x \(×2\); a better\./);
  assert.match(page, /\| `rest\/closed\/c1` \| 2,025 \(n=6\) \| 1,025 \(n=6\) \| ×1\.98 \[\d\.\d+, \d\.\d+\] \|/);
  assert.match(page, /- `rest\/closed\/c1`: k6 was generator-bound in 1 of a's 6 repetitions, so the figure there is partly the load generator's\./);
  assert.match(page, /Run `2026-11-26T07-00-00Z` \(profile papers: 6 repetitions × 5 s/);
  assert.match(page, /commit `c0ffee`/);
  assert.match(page, /- one host/);
  assert.match(page, /- the long test: `make bench IMPL=a,b API=toy PROFILE=paper` \(hours\)\./);
  assert.match(summaryLine([{ paper, compact }]), /^8 claims of 1 papers; 1 of 1 papers run here: 3 of the claims reproduced or equivalent/);
  assert.equal(renderPapersPage([{ paper: withLongRun, compact }]), page, 'the page is a function of its inputs');
});

test('with no compact result every checkable claim says "not yet run here"', () => {
  const page = renderPapersPage([{ paper, compact: null }]);
  assert.match(page, /\*\*Not yet run here\.\*\* `make papers` runs `make bench IMPL=a,b API=toy PROFILE=papers`/);
  assert.equal((page.match(/Ours: not yet run here\./g) ?? []).length, 7);
  assert.match(summaryLine([{ paper, compact: null }]), /none run here yet, so none reproduced so far \(7 not yet run, 1 cannot check here\)/);
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
