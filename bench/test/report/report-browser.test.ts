// The report in a browser: the fixture runs (fixtures/generate.ts) rendered by the report code,
// opened in headless Chromium from Debian; every chart must be drawn and no text may leave its
// box. Deterministic and quick: no benchmark runs.
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { checkCharts, checkOverflow, openReport, VIEWPORT } from '../../src/report/html/browser.ts';
import { writeReport } from '../../src/report/index.ts';
import type { BenchResult } from '../../src/record/result-document.ts';
import { writeFixtures } from '../fixtures/generate.ts';

let dir: string;
let browser: Browser;
let page: Page;

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'fairbench-report-browser-'));
  writeFixtures(dir);
  // One run with its first repetitions' latency timelines: the warm-up chart is drawn too (a slow first second, then steady).
  const file = join(dir, 'bench', 'forum', 'express', '2026-11-21T08-00-00Z.json');
  const doc = JSON.parse(await readFile(file, 'utf8')) as BenchResult;
  for (const c of doc.cases)
    if (c.protocol !== 'database') c.repetitions[0]!.timeline = [30, 4, 3, 3, 3].map((p50Ms, second) => ({ second, requests: 500, p50Ms, p95Ms: p50Ms * 2 }));
  await writeFile(file, JSON.stringify(doc));
  const report = await writeReport(dir, join(dir, 'report', 'index.html'));
  ({ browser, page } = await openReport(report.file));
});
after(async () => {
  await browser?.close();
  await rm(dir, { recursive: true, force: true });
});

test('every chart of the report is drawn: a box with marks in it', async () => {
  const { charts, empty } = await checkCharts(page);
  assert.ok(charts >= 10, `only ${charts} charts`);
  assert.deepEqual(empty, []);
});

test('the warm-up chart (latency over the first seconds) is drawn in every group that has timelines', async () => {
  const boxes = await page
    .locator('figure.timeline svg')
    .evaluateAll((svgs) => svgs.map((s) => ({ w: s.getBoundingClientRect().width, marks: s.querySelectorAll('path').length })));
  assert.ok(boxes.length >= 2, `${boxes.length} warm-up charts`);
  for (const b of boxes) assert.ok(b.w > 200 && b.marks > 4, JSON.stringify(b));
});

test('no text overflows its box, no chart label leaves its chart, the page fits the window', async () => {
  const result = await checkOverflow(page);
  assert.ok(result.checked > 100, `only ${result.checked} elements with text`);
  assert.deepEqual(result.overflowing, []);
  assert.deepEqual(result.clippedLabels, []);
  assert.equal(result.pageOverflow, 0);
});

test("the first screen (1400×900) is the answer: the API's chart with its verdicts, the method below it", async () => {
  const top = await page.evaluate(() => {
    const figure = document.querySelector('figure')!;
    const box = figure.getBoundingClientRect();
    return {
      inAnswer: figure.closest('section.answer') !== null,
      top: box.top,
      verdicts: figure.querySelectorAll('text[aria-label*="mark: "]').length,
      method: document.getElementById('method')!.getBoundingClientRect().top,
    };
  });
  assert.ok(top.inAnswer, 'the first chart is the answer');
  assert.ok(top.top < VIEWPORT.height / 4, `its top at ${top.top} px`);
  assert.ok(top.verdicts > 0, 'with its verdict marks');
  assert.ok(top.method > top.top, 'the method below it');
});

test('the checks can fail: an empty chart and a text wider than its box are found', async () => {
  const broken = join(dir, 'broken.html');
  await writeFile(
    broken,
    '<!doctype html><body style="width:800px"><figure><svg width="0" height="0"></svg><figcaption>empty</figcaption></figure><p style="width:40px;white-space:nowrap">a sentence far wider than forty pixels</p></body>',
  );
  const opened = await openReport(broken);
  try {
    assert.equal((await checkCharts(opened.page)).empty.length, 1);
    assert.equal((await checkOverflow(opened.page)).overflowing.length, 1);
  } finally {
    await opened.browser.close();
  }
});
