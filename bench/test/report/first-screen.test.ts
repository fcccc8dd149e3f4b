// The report's first screen: right under the title, per API, the chart of each implementation
// against the database alone and against the others, with the verdict marks the tables below
// state (the same families, so they cannot differ); the method, runs and warnings after it,
// linked from it. Rendered from the fixture runs (fixtures/generate.ts).
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { writeReport, type WrittenReport } from '../../src/report/index.ts';
import { limitVerdicts } from '../../src/report/limit-verdicts.ts';
import { toMark } from '../../src/report/model/overview.ts';
import type { ApiReport, OverviewSeries } from '../../src/report/model.ts';
import { writeCalibrationFixtures, writeFixtures } from '../fixtures/generate.ts';

let dir: string;
let report: WrittenReport;
let html: string;
let api: ApiReport;

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'fairbench-first-screen-'));
  writeFixtures(join(dir, 'results'));
  report = await writeReport(join(dir, 'results'), join(dir, 'index.html'));
  html = await readFile(report.file, 'utf8');
  api = report.apis[0]!;
});
after(() => rm(dir, { recursive: true, force: true }));

/** The page's parts in order: the tag and id of every section and heading after the title. */
function outline(page: string): string[] {
  const body = page.slice(page.indexOf('</h1>'));
  return [...body.matchAll(/<(section|h2|h3)\b([^>]*)>/g)].map((m) => `${m[1]}#${/\bid="([^"]*)"/.exec(m[2]!)?.[1] ?? ''}`);
}

/** The verdict cells drawn in a chart: "column|series|mark", from the marks' accessible labels. */
function drawnCells(svg: string): string[] {
  return [...svg.matchAll(/aria-label="column: ([^;]*); series: ([^;]*); mark: ([^;]*); text: [^"]*"/g)].map((m) => `${m[1]}|${m[2]}|${m[3]}`);
}

const answerOf = (page: string, id: string) => {
  const start = page.indexOf(`<section class="answer" id="${id}-answer">`);
  assert.ok(start > 0, `no answer section for ${id}`);
  return page.slice(start, page.indexOf('</section>', start));
};

test("the first section after the title is the API's answer; the method, the runs and the warnings come after it", () => {
  const parts = outline(html);
  assert.equal(parts[0], 'section#forum-answer', parts.slice(0, 3).join(', '));
  const at = (part: string) => {
    const i = parts.indexOf(part);
    assert.ok(i >= 0, `${part} missing`);
    return i;
  };
  assert.ok(at('section#forum-answer') < at('h2#method'));
  assert.ok(at('h2#method') < at('h3#forum-runs') && at('h3#forum-runs') < at('h3#forum-warnings'));
  // Before the answer only the title and the line naming the skipped file.
  const top = html.slice(html.indexOf('</h1>'), html.indexOf('<section class="answer"'));
  assert.doesNotMatch(top, /<table|<h2|class="warn/);
  assert.match(top, /<a href="#skipped">1 result file skipped<\/a>/);
});

test('the answer links to the method, the runs and the warnings, which are on the page', () => {
  const answer = answerOf(html, 'forum');
  for (const target of ['method', 'forum-runs', 'forum-warnings', 'forum']) {
    assert.ok(answer.includes(`href="#${target}"`), `a link to #${target}`);
    assert.ok(html.includes(` id="${target}"`), `#${target} on the page`);
  }
  assert.ok(answer.includes(`${api.warnings.length} warnings</a>`) && answer.includes(`the ${api.runs.length} runs</a>`));
});

test('per case: the database alone and each implementation, with every verdict the pair tables and the limit families give', () => {
  const pairs = api.pairs;
  const families = new Map<unknown, ReturnType<typeof limitVerdicts>>();
  const familyOf = (run: Parameters<typeof limitVerdicts>[0]) => families.get(run) ?? families.set(run, limitVerdicts(run)).get(run)!;
  assert.equal(api.overview.length, api.groups.flatMap((g) => g.rows).length);
  for (const c of api.overview) {
    const impls = c.series.filter((s) => !s.limit);
    assert.ok(
      c.series.some((s) => s.limit),
      `${c.id}: a limit`,
    );
    for (const s of impls) {
      // Against the database alone: the run's own family (limit-verdicts.ts), as the terminal summary gives it.
      const result = api.groups
        .flatMap((g) => g.rows)
        .find((r) => r.id === c.id)!
        .results.find((r) => r.impl === s.label)!;
      const vsLimit = familyOf(result.run).cases.find((x) => x.caseId === c.id)!;
      assert.equal(s.throughputVerdicts[0]!.verdict, vsLimit.throughput.verdict, `${c.id} ${s.label} vs the limit`);
      assert.equal(s.p95Verdicts[0]!.verdict, vsLimit.p95.verdict);
      // Against each other implementation: the pair's verdict, the second side's turned round.
      for (const other of impls.filter((o) => o !== s)) {
        const pair = pairs.find((p) => p.a === s.label && p.b === other.label) ?? pairs.find((p) => p.a === other.label && p.b === s.label)!;
        const cmp = pair.cases.find((x) => x.caseId === c.id)!;
        const mine = s.throughputVerdicts.find((v) => v.against === other.label)!;
        const flipped = { faster: 'slower', slower: 'faster' } as Record<string, string>;
        const expected = pair.a === s.label ? cmp.throughput.verdict : (flipped[cmp.throughput.verdict] ?? cmp.throughput.verdict);
        assert.equal(mine.verdict, expected, `${c.id} ${s.label} vs ${other.label}`);
        assert.ok(Math.abs(mine.ratio * other.throughputVerdicts.find((v) => v.against === s.label)!.ratio - 1) < 1e-12);
      }
    }
  }
  // The fixtures' clear case (express at 55% of the limit, hapi at 43%) and the overlapping one.
  const series = (id: string, impl: string) => api.overview.find((c) => c.id === id)!.series.find((s) => s.label === impl)!;
  const against = (s: OverviewSeries, other: string) => s.throughputVerdicts.find((v) => v.against === other)!.mark;
  assert.equal(against(series('rest/closed/c100-r1-j0', 'express'), 'hapi'), 'faster');
  assert.equal(against(series('rest/closed/c100-r1-j0', 'hapi'), 'express'), 'slower');
  assert.equal(against(series('rest/closed/c100-r100-j0', 'express'), 'hapi'), 'no difference');
  // elysia's QUICK run has too few repetitions: every verdict of it is inconclusive.
  assert.ok(api.overview.every((c) => c.series.filter((s) => s.label === 'elysia').every((s) => s.throughputVerdicts.every((v) => v.mark === 'inconclusive'))));
});

test('the chart draws every verdict of the model with its mark, and the generator-bound ones with theirs', () => {
  const answer = answerOf(html, 'forum');
  assert.equal((answer.match(/<svg /g) ?? []).length, 1, 'one chart per API');
  const cells = drawnCells(answer);
  const expected = api.overview.flatMap((c) => c.series.flatMap((s) => [...s.throughputVerdicts, ...s.p95Verdicts].map((v) => v.mark)));
  assert.equal(cells.length, expected.length);
  for (const mark of ['faster', 'slower', 'no difference', 'inconclusive'])
    assert.equal(cells.filter((c) => c.endsWith(`|${mark}`)).length, expected.filter((m) => m === mark).length, mark);
  // Three implementations: a column per implementation, a row's own left empty.
  assert.deepEqual([...new Set(cells.map((c) => c.split('|')[0]))].sort(), ['vs database alone', 'vs elysia', 'vs express', 'vs hapi']);
  assert.ok(!cells.some((c) => c.startsWith('vs express|express')));
  // hapi's GraphQL case at c500 was generator-bound in all 5 repetitions: its label and its verdicts say so.
  const bound = api.overview.find((c) => c.id === 'graphql/closed/c500-r1-j0')!.series.find((s) => s.label === 'hapi')!;
  assert.equal(bound.generatorBound, 5);
  assert.ok(bound.throughputVerdicts.every((v) => v.generatorBound));
  assert.match(answer, />hapi ⚠ 5\/5</);
  assert.ok(answer.includes('bootstrap interval') && answer.includes('lower is faster'));
});

test('an A/A run: one limit, "vs the other" with words, and the false verdicts counted at the top', async () => {
  const root = join(dir, 'aa');
  writeCalibrationFixtures(root);
  const aa = await writeReport(root, join(root, 'index.html'));
  const page = await readFile(aa.file, 'utf8');
  const section = aa.apis[0]!;
  assert.equal(outline(page)[0], `section#${section.id}-answer`);
  assert.ok(section.overview.every((c) => c.series.map((s) => s.label).join() === 'database alone,express,express#2'));
  const answer = answerOf(page, section.id);
  const counts = section.calibration!.counts;
  assert.ok(answer.includes(`here ${counts.adjusted} of ${counts.tested} after the adjustment`));
  const cells = drawnCells(answer);
  assert.deepEqual([...new Set(cells.map((c) => c.split('|')[0]))], ['vs database alone', 'vs the other']);
  const first = section.overview[0]!.series[1]!.throughputVerdicts[1]!;
  assert.match(answer, new RegExp(`>[+−][\\d.]+% ${toMark(first.verdict)}( ⚠)?</text>`));
});
