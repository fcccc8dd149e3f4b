// The report renders the fixture runs (made by fixtures/generate.ts into a temp dir)
// into one self-contained HTML page with the expected cases, numbers, charts and verdicts,
// and skips the invalid fixture with a warning that names it.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { writeReport, type WrittenReport } from '../../src/report/index.ts';
import type { BenchResult } from '../../src/record/result-document.ts';
import { limitFor } from '../../src/record/limit.ts';
import { summarizeCase } from '../../src/report/model.ts';
import { comparisonMarkdown } from '../../src/report/comparison-summary.ts';
import { casesCsv, csvField } from '../../src/report/csv.ts';
import { summaryMarkdown } from '../../src/report/summary.ts';
import { writeCalibrationFixtures, writeFixtures } from '../fixtures/generate.ts';

const FIXTURES = mkdtempSync(join(tmpdir(), 'fairbench-report-fixtures-'));
writeFixtures(FIXTURES);
after(() => rm(FIXTURES, { recursive: true, force: true }));
const EXPRESS = join(FIXTURES, 'bench', 'forum', 'express', '2026-11-21T08-00-00Z.json');
const HAPI = join(FIXTURES, 'bench', 'forum', 'hapi', '2026-11-21T10-30-00Z.json');
const read = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as BenchResult;

/** The median of an odd number of values, computed plainly (the fixtures have 3 or 5 repetitions). */
function oddMedian(values: number[]): number {
  assert.equal(values.length % 2, 1);
  return [...values].sort((a, b) => a - b)[(values.length - 1) / 2]!;
}
const throughputs = (doc: BenchResult, id: string) => doc.cases.find((c) => c.id === id)!.repetitions.map((r) => r.throughput);

let dir: string;
let report: WrittenReport;
let html: string;

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'fairbench-report-'));
  report = await writeReport(FIXTURES, join(dir, 'report', 'index.html'));
  html = await readFile(report.file, 'utf8');
});
after(() => rm(dir, { recursive: true, force: true }));

test('the invalid fixture is skipped with a warning that names it; the valid ones are used', () => {
  assert.equal(report.runs, 4);
  assert.equal(report.warnings.length, 1);
  assert.match(report.warnings[0]!, /skipped bench\/forum\/hapi\/broken\.json: does not match .*gate.*throughput must be number/);
  assert.ok(html.includes('skipped bench/forum/hapi/broken.json'));
});

test('the page is self-contained: inline SVG charts, no script, nothing fetched', () => {
  assert.ok(html.startsWith('<!doctype html>'));
  const svgs = html.match(/<svg /g) ?? [];
  // The first screen's answer; rest/closed, rest/open, graphql/closed: throughput, CPU per request, latency, CPU, RSS
  // each; the tiers' CPU; rest/closed also response time over time and box plots (one case records them).
  assert.equal(svgs.length, 19);
  assert.doesNotMatch(html, /<script|<link|<img|@import|url\(/i);
  assert.doesNotMatch(html, /(src|href)="(https?:)?\/\//i);
  assert.ok(
    html.includes('throughput (req/s)') && html.includes('latency (ms, log scale') && html.includes('server CPU (%)') && html.includes('server RSS (MiB)'),
  );
});

test('every case appears per group, with its median throughput and its share of the limit (the native tier)', () => {
  const express = read(EXPRESS);
  for (const heading of ['REST · closed model', 'REST · open model', 'GraphQL · closed model']) assert.ok(html.includes(heading), heading);
  for (const c of express.cases.filter((x) => x.protocol !== 'database' && x.protocol !== 'native')) {
    const label = Object.entries(c.parameters)
      .map(([k, v]) => `${k} ${v}`)
      .join(' · ');
    assert.ok(html.includes(label), label);
    const m = oddMedian(throughputs(express, c.id));
    assert.ok(html.includes(`<b>${Math.round(m).toLocaleString('en-US')}</b>`), `${c.id} median ${m}`);
  }
  const id = 'rest/closed/c100-r1-j0';
  const share = oddMedian(throughputs(express, id)) / oddMedian(throughputs(express, 'native/closed/c100-r1-j0'));
  assert.ok(html.includes(`${(share * 100).toFixed(0)}% [`), `share ${share}`);
});

test('the header lists the runs, and the warnings name generator-bound cases, errors, quick and superseded runs', () => {
  for (const text of [
    '@hapi/hapi 21.4.0',
    'express 5.1.0',
    'bun 1.3.1',
    'mariadb 10.11.19',
    'k6 v1.4.2',
    'server cpu 0',
    'AMD EPYC',
    'REPEAT 5, 10 s + 5 s warm-up',
  ])
    assert.ok(html.includes(text), text);
  const hapi = read(HAPI);
  const errors = hapi.cases
    .find((c) => c.id === 'rest/closed/c500-r100-j1')!
    .repetitions.reduce((n, r) => n + Object.values(r.errors).reduce((a, b) => a + b, 0), 0);
  const warnings = report.apis[0]!.warnings.join('\n');
  assert.match(warnings, new RegExp(`hapi rest/closed/c500-r100-j1: ${errors} failed requests`));
  assert.match(warnings, /hapi graphql\/closed\/c500-r1-j0: 5 of 5 repetitions generator-bound/);
  assert.match(warnings, /express rest\/open\/rate2000-r1-j0: .*37 dropped iterations/);
  assert.match(warnings, /elysia: too few repetitions in 8 cases/);
  assert.match(warnings, /express: run 2026-11-20T09-00-00Z-quick is superseded/);
});

test('comparisons: faster where the fixtures differ clearly, no verdict where they overlap or have one repetition', () => {
  const pairs = report.apis[0]!.pairs;
  assert.deepEqual(
    pairs.map((p) => `${p.a}~${p.b}`),
    ['elysia~express', 'elysia~hapi', 'express~hapi'],
  );
  const eh = pairs[2]!;
  const verdictOf = (id: string) => eh.cases.find((c) => c.caseId === id)!.throughput.verdict;
  // Made with express at 55% of the limit and hapi at 43% for one row; both at ~85% for 100 rows.
  assert.equal(verdictOf('rest/closed/c100-r1-j0'), 'faster');
  assert.equal(verdictOf('rest/closed/c500-r1-j0'), 'faster');
  assert.equal(verdictOf('rest/closed/c100-r100-j0'), 'no significant difference');
  assert.equal(eh.cases.find((c) => c.caseId === 'rest/closed/c100-r1-j0')!.p95.verdict, 'faster');
  assert.ok(pairs[0]!.cases.every((c) => c.throughput.verdict === 'too few repetitions'));
  assert.ok(html.includes('class="faster">faster') && html.includes('no significant difference') && html.includes('too few repetitions'));
});

test('one family per pair table: 16 cases × throughput, p95 and CPU per request, adjusted together; raw and adjusted verdicts, p-values and MDEs shown', () => {
  const eh = report.apis[0]!.pairs[2]!;
  const cpus = eh.cases.flatMap((c) => (c.cpu ? [c.cpu] : []));
  const all = [...eh.cases.flatMap((c) => [c.throughput, c.p95]), ...cpus];
  assert.equal(eh.family.tested, 32 + cpus.length);
  assert.ok(cpus.length > 0, 'the fixtures record CPU per request');
  assert.ok(all.every((c) => c.familySize === 32 + cpus.length && c.pAdjusted !== null && c.pAdjusted >= c.test!.p));
  // Every comparison states its precision; 5 against 5 repetitions: the groups, not pairs.
  assert.ok(all.every((c) => typeof c.mde === 'number' && c.mde > 0 && !c.paired));
  assert.ok(html.includes('<th>MDE</th>') && html.includes('CPU difference [CI]'));
  // 5 against 5: complete separation is the smallest p, 2/252.
  const clear = eh.cases.find((c) => c.caseId === 'rest/closed/c100-r1-j0')!.throughput;
  assert.ok(Math.abs(clear.test!.p - 2 / 252) < 1e-12);
  assert.equal(eh.family.raw, all.filter((c) => c.rawVerdict === 'faster' || c.rawVerdict === 'slower').length);
  assert.equal(eh.family.adjusted, all.filter((c) => c.verdict === 'faster' || c.verdict === 'slower').length);
  assert.ok(eh.family.adjusted >= 8 && eh.family.adjusted <= eh.family.raw);
  assert.ok(html.includes('<th>raw verdict</th>') && html.includes('<th>p (adj.)</th>'));
  assert.ok(
    html.includes(`Declared faster or slower: ${eh.family.raw} of ${eh.family.tested} raw, ${eh.family.adjusted} of ${eh.family.tested} after the adjustment.`),
  );
  assert.match(html, /<h2 id="method">Method<\/h2>/);
  assert.ok(html.includes('0.1 at 3 against 3'));
});

test('an A/A calibration run: a section of its own, never mixed with the other runs, its counts stated', async () => {
  const root = join(dir, 'aa');
  writeCalibrationFixtures(root);
  await mkdir(join(root, 'bench', 'forum', 'express'), { recursive: true });
  await copyFile(EXPRESS, join(root, 'bench', 'forum', 'express', 'ordinary.json'));
  const aa = await writeReport(root, join(root, 'report', 'index.html'));
  const page = await readFile(aa.file, 'utf8');
  assert.equal(aa.warnings.length, 0);
  assert.deepEqual(
    aa.apis.map((a) => [a.id, a.impls, a.calibration?.runId ?? null]),
    [
      ['forum', ['express'], null],
      ['forum-aa-2026-11-22T08-00-00Z', ['express', 'express#2'], '2026-11-22T08-00-00Z'],
    ],
  );
  const section = aa.apis[1]!;
  // The ordinary run is newer than nothing here: every case of the A/A section is the A/A run's.
  assert.ok(section.runs.every((r) => r.doc.runId === '2026-11-22T08-00-00Z'));
  assert.equal(section.pairs.length, 1);
  const { family } = section.pairs[0]!;
  const cpus = section.pairs[0]!.cases.filter((c) => c.cpu).length;
  assert.equal(family.tested, 16 + cpus, '8 REST cases × throughput and p95, and CPU per request where recorded');
  assert.deepEqual(section.calibration!.counts, family);
  assert.ok(page.includes('A/A calibration: express against itself'));
  assert.ok(page.includes(`<b>${family.raw}</b> declared on the raw p-values`) && page.includes(`<b>${family.adjusted}</b> after the adjustment`));
  assert.ok(page.includes('id="forum-aa-2026-11-22T08-00-00Z-rest-closed"'));
  // The runner's terminal summary: the same families and counts.
  const md = comparisonMarkdown([section]);
  assert.match(md, /\*\*express\*\* vs \*\*express#2\*\* on \*\*forum\*\* — A\/A calibration run `2026-11-22T08-00-00Z`/);
  assert.equal(md.split('\n').filter((l) => l.startsWith('| rest/closed/')).length, 8);
  assert.ok(
    md.includes(
      `Family (this table): ${family.tested} tested; declared faster or slower: ${family.raw} raw, ${family.adjusted} after the Benjamini–Hochberg adjustment.`,
    ),
  );
  // The A/A table states its precision: an MDE per comparison and the widths in one line.
  assert.match(md, /\| MDE \|/);
  assert.match(md, /Precision: throughput interval widths [\d.]+–[\d.]+ points, MDE [\d.]+–[\d.]+ points/);
  assert.match(summaryMarkdown(section.runs.find((r) => r.doc.implementation.copy === 2)!.doc), /^\*\*express#2\*\* on \*\*forum\*\*/);
});

test('CPU per request: the median µs of the server and the database per case, the database alone beside them, the chart', () => {
  const express = read(EXPRESS);
  const id = 'rest/closed/c100-r1-j0';
  const reps = express.cases.find((c) => c.id === id)!.repetitions;
  const server = oddMedian(reps.map((r) => r.cpuPerRequestUs!.server!));
  const database = oddMedian(reps.map((r) => r.cpuPerRequestUs!.database!));
  const alone = oddMedian(express.cases.find((c) => c.id === 'database/closed/c100-r1-j0')!.repetitions.map((r) => r.cpuPerRequestUs!.database!));
  const us = (x: number) => x.toLocaleString('en-US', { maximumFractionDigits: x >= 100 ? 0 : 1 });
  // The row of this case in express's CPU table: server [CI], database [CI], their sum, k6, the database alone.
  const row = html.split('<tr>').find((r) => r.includes(`<b>${us(server)}</b> <small>[`) && r.includes(`<b>${us(database)}</b> <small>[`));
  assert.ok(row, `a CPU row with server ${us(server)} and database ${us(database)} µs`);
  assert.ok(row.includes(`<td>${us(server + database)}</td>`), 'their sum');
  assert.ok(row.includes(`<td>${us(alone)}</td>`), `the database alone ${us(alone)} µs per query`);
  assert.ok(html.includes('CPU per request (µs)') && html.includes('database server'));
});

test('the generator ceiling and the machine state: shown per run, cases near the ceiling and a busy machine warned of', () => {
  const hapi = read(HAPI);
  assert.ok(html.includes('5,800 req/s against nginx 1.22.1'));
  assert.ok(html.includes('control CV 7.5% over 3 parts of the window'));
  assert.ok(html.includes('cross-check wrk 4.1.0: 40,000 req/s, 21.5 µs CPU per request'));
  // CROSSCHECK=wrk on one case: its rate beside k6's median in the throughput table, with the ratio.
  const k6 = oddMedian(throughputs(hapi, 'rest/closed/c100-r1-j0'));
  assert.ok(html.includes('wrk req/s (× k6)'));
  assert.ok(html.includes(`<td>5,200 <small>(×${(5200 / k6).toFixed(2)})</small></td>`), `wrk 5,200 beside k6 ${k6}`);
  assert.ok(html.includes('load average 1.5 1.2 0.9'));
  const warnings = report.apis[0]!.warnings.join('\n');
  assert.match(warnings, /hapi: run 2026-11-21T10-30-00Z started on a busy machine: stress \(pid 4242\) 97%/);
  assert.match(warnings, /express: run 2026-11-21T08-00-00Z recorded no generator ceiling/);
  assert.doesNotMatch(warnings, /varied by/, 'a control CV of 7.5% is below the warning');
  const near = hapi.cases.filter((c) => c.protocol !== 'database' && c.repetitions.some((r) => r.ceilingShare! > 0.5));
  assert.ok(near.length > 0 && near.length < hapi.cases.length - 9, `${near.length} hapi cases near the ceiling`);
  for (const c of near) assert.match(warnings, new RegExp(`hapi ${c.id}: \\d of 5 repetitions above 50% of the generator's ceiling`), c.id);
  const far = hapi.cases.find((c) => c.protocol !== 'database' && c.repetitions.every((r) => r.ceilingShare! < 0.5))!;
  assert.doesNotMatch(warnings, new RegExp(`hapi ${far.id}: .*generator's ceiling`));
});

test('one implementation alone renders without comparisons', async () => {
  const root = join(dir, 'one');
  await mkdir(join(root, 'bench', 'forum', 'express'), { recursive: true });
  await copyFile(EXPRESS, join(root, 'bench', 'forum', 'express', 'run.json'));
  const one = await writeReport(root, join(root, 'report', 'index.html'));
  const page = await readFile(one.file, 'utf8');
  assert.deepEqual(
    one.apis.map((a) => a.impls),
    [['express']],
  );
  assert.equal(one.warnings.length, 0);
  assert.ok(!page.includes('<h3>Comparisons</h3>'));
  assert.equal((page.match(/<svg /g) ?? []).length, 19);
});

test('where a case records them: Apdex per case and request type, the stress outcomes, response time over time, box plots', () => {
  assert.equal((html.match(/<h4>Apdex<\/h4>/g) ?? []).length, 1, 'only the group whose case recorded Apdex');
  assert.match(html, /Apdex with T = 1,000 ms and F = 10,000 ms, from the counts/);
  assert.match(html, /<th>listFacilities<\/th>/);
  assert.match(html, /<h4>Stress test: time to failure<\/h4>/);
  assert.match(html, /survived \(cap 660 s\)/);
  assert.match(html, /not within 60 s/);
  assert.match(html, /<h4>Response time over time<\/h4>/);
  assert.match(html, /<h4>Response time per request type<\/h4>/);
});

test("the summary gives each case's interval and its verdict against the database alone, and the CSV every case", () => {
  const hapi = read(HAPI);
  const md = summaryMarkdown(hapi);
  const row = md.split('\n').find((l) => l.startsWith('| rest/closed/c100-r1-j0 |'))!;
  // 5 repetitions: an interval and a verdict (the fixture's implementation is well below its limit).
  assert.match(row, /\| [\d,]+ \[[\d,]+, [\d,]+\] \|/);
  assert.match(row, /\| (faster|slower|no significant difference) \([^)]+\), (faster|slower|no significant difference) \(/);
  assert.match(md, /\*\*Verdicts against the database alone\*\* .*throughput: faster \d+, slower \d+, no significant difference \d+/);
  const csv = casesCsv(hapi).trimEnd().split('\n');
  assert.equal(csv.length, hapi.cases.length + 1);
  const header = csv[0]!.split(',');
  const line = csv.find((l) => l.includes(',rest/closed/c500-r100-j1,'))!.split(',');
  const at = (name: string) => line[header.indexOf(name)]!;
  assert.equal(Number(at('throughput_median')), Number(oddMedian(throughputs(hapi, 'rest/closed/c500-r100-j1')).toPrecision(6)));
  assert.ok(Number(at('throughput_ci_low')) <= Number(at('throughput_median')) && Number(at('throughput_median')) <= Number(at('throughput_ci_high')));
  assert.equal(at('errors'), '75');
  assert.equal(at('vs_limit_throughput'), 'slower');
  assert.equal(csvField('a,"b"'), '"a,""b"""');
});

test("proof of work beside each figure: how many repetitions the database's counters checked, and why not the others", () => {
  const hapi = read(HAPI);
  const c = hapi.cases.find((x) => x.id === 'rest/closed/c500-r100-j1')!;
  const reason = 'Com_select: server-wide, and another load shared the server';
  c.repetitions = c.repetitions.map((r, i) => ({
    ...r,
    work:
      i === 0
        ? { window: 'repetition', verdict: 'not checkable', reasons: [reason], counters: [] }
        : { window: 'repetition', verdict: 'checked', reasons: [], counters: [] },
  }));
  const n = c.repetitions.length;
  assert.deepEqual(summarizeCase('forum', 'hapi', hapi, c).work, { checked: n - 1, notCheckable: 1, unrecorded: 0, reasons: [reason] });
  const csv = casesCsv(hapi).trimEnd().split('\n');
  const header = csv[0]!.split(',');
  const cells = (id: string) => csv.find((l) => l.includes(`,${id},`))!.split(',');
  const at = (id: string, name: string) => cells(id)[header.indexOf(name)];
  assert.equal(at(c.id, 'work_checked_repetitions'), String(n - 1));
  assert.equal(at(c.id, 'work_not_checkable_repetitions'), '1');
  // A run from before the check: nothing said, rather than a zero.
  assert.equal(at('rest/closed/c100-r1-j0', 'work_checked_repetitions'), '');
  assert.match(html, /<th[^>]*>work<\/th>/);
});

test('no results: a page that says so', async () => {
  const empty = await writeReport(join(dir, 'nothing'), join(dir, 'nothing', 'index.html'));
  assert.equal(empty.runs, 0);
  assert.match(await readFile(empty.file, 'utf8'), /No benchmark results found/);
});

test('the Markdown summary of one run has a row per case with its median, p95, share of the limit and flags', () => {
  const hapi = read(HAPI);
  const md = summaryMarkdown(hapi);
  const rows = md.split('\n').filter((l) => l.startsWith('| ') && !l.startsWith('| case') && !l.startsWith('| ---'));
  assert.equal(rows.length, hapi.cases.length);
  const row = rows.find((l) => l.startsWith('| rest/closed/c500-r100-j1 |'))!;
  const m = oddMedian(throughputs(hapi, 'rest/closed/c500-r100-j1'));
  assert.ok(row.includes(`| ${Math.round(m).toLocaleString('en-US')} [`), row);
  assert.match(row, /\| 75 errors \|$/, '15 failed requests in each of 5 repetitions');
  assert.match(
    rows.find((l) => l.startsWith('| graphql/closed/c500-r1-j0 |'))!,
    /generator-bound ×5/,
  );
  // The native tier ran at this point: it is the limit; the driver's row says its tier.
  assert.match(
    rows.find((l) => l.startsWith('| native/closed/c100-r1-j0 |'))!,
    /\(the limit: native tier\)/,
  );
  assert.match(
    rows.find((l) => l.startsWith('| database/closed/c100-r1-j0 |'))!,
    /\| \(driver tier\) \|/,
  );
});

test('the limit: the native tier where it ran, the driver where the API chose it or the native case failed', () => {
  const hapi = read(HAPI);
  const served = hapi.cases.find((c) => c.id === 'rest/closed/c100-r1-j0')!;
  assert.equal(limitFor(hapi, served)?.id, 'native/closed/c100-r1-j0');
  assert.equal(limitFor({ ...hapi, limit: { tier: 'driver' } }, served)?.id, 'database/closed/c100-r1-j0');
  const nativeFailed = hapi.cases.map((c) => (c.id === 'native/closed/c100-r1-j0' ? { ...c, failure: { kind: 'baseline' as const, reason: 'test' } } : c));
  assert.equal(limitFor({ cases: nativeFailed }, served)?.id, 'database/closed/c100-r1-j0');
  // Every served case's share in the summary divides by that limit.
  const share = summarizeCase(hapi.api, 'hapi', hapi, served).baseline!;
  assert.equal(share.tier, 'native');
  assert.equal(share.throughput.median, oddMedian(throughputs(hapi, 'native/closed/c100-r1-j0')));
});

test('the tiers table: per point the native, driver and HTTP tiers with intervals, the share of native, and a native client above half its core flagged', async () => {
  const { loadResults } = await import('../../src/report/load.ts');
  const { buildModel } = await import('../../src/report/model.ts');
  const api = buildModel((await loadResults(FIXTURES)).runs)[0]!;
  const point = api.tiers.find(
    (p) => p.model === 'closed' && p.parameters['concurrency'] === 100 && p.parameters['rows'] === 1 && p.parameters['joins'] === 0,
  )!;
  // Each run's database-alone cases once (express's and hapi's full runs have both tiers, elysia's QUICK run only the driver's), then every implementation and protocol.
  assert.deepEqual(
    point.entries.map((e) => `${e.tier}:${e.who}`),
    [
      'native:database alone',
      'native:database alone',
      'driver:database alone',
      'driver:database alone',
      'driver:database alone',
      'http:elysia · rest',
      'http:express · rest',
      'http:express · graphql',
      'http:hapi · rest',
      'http:hapi · graphql',
    ],
  );
  const express = read(EXPRESS);
  const native = point.entries.find((e) => e.tier === 'native' && e.runId === express.runId)!;
  assert.equal(native.throughput.median, oddMedian(throughputs(express, 'native/closed/c100-r1-j0')));
  assert.ok(native.throughput.ci && native.client && native.client.median < 30, 'a native client costs little per query');
  const driver = point.entries.find((e) => e.tier === 'driver' && e.runId === express.runId)!;
  const ratio = oddMedian(throughputs(express, 'database/closed/c100-r1-j0')) / native.throughput.median;
  assert.ok(Math.abs(driver.ofNative!.ratio - ratio) < 1e-9);
  const rest = point.entries.find((e) => e.who === 'express · rest')!;
  assert.ok(rest.server && rest.ofNative && rest.ofNative.ratio < driver.ofNative!.ratio);
  assert.ok(html.includes('Where the time and CPU go: native, driver, HTTP'));
  assert.match(html, /<span class="slower">64%<\/span>/);
  assert.match(
    api.warnings.join('\n'),
    /hapi run 2026-11-21T10-30-00Z: the native client used more than 50% of its core in 1 of 8 native cases .*native\/closed\/c500-r100-j1/,
  );
  // A generator-bound driver case is the limit only where no native case ran (elysia's QUICK run).
  const warnings = api.warnings.join('\n');
  assert.match(warnings, /elysia run 2026-11-21T12-00-00Z-quick: the limit \(the database alone\) was generator-bound in 2 of 8 cases/);
  assert.match(
    warnings,
    /hapi run 2026-11-21T10-30-00Z: the driver tier's client was generator-bound in 2 of 8 driver cases .*\(the limit is the native tier\)/,
  );
  assert.doesNotMatch(warnings, /hapi run 2026-11-21T10-30-00Z: the limit \(the database alone\) was generator-bound/);
  // Native cases are no implementation's: no group of their own, no verdict against the limit.
  assert.ok(api.groups.every((g) => g.protocol !== 'native'));
});

test('warm-up iterations: a table of their rates where a case ran them, and none where no case did', async () => {
  assert.ok(!html.includes('<h4>Warm-up iterations</h4>'), 'the fixtures ran none');
  const doc = read(EXPRESS);
  const served = doc.cases.find((c) => c.protocol === 'rest')!;
  const rep = served.repetitions[0]!;
  served.warmup = { iterations: [1200, 2100, 2150].map((throughput, i) => ({ ...rep, index: i + 1, throughput })), steady: true };
  doc.options.warmupIterations = { max: 6, steadyWithinPercent: 5 };
  const root = join(dir, 'warmed');
  await mkdir(join(root, 'bench', 'forum', 'express'), { recursive: true });
  await writeFile(join(root, 'bench', 'forum', 'express', 'run.json'), JSON.stringify(doc));
  const written = await writeReport(root, join(root, 'report', 'index.html'));
  assert.equal(written.warnings.length, 0);
  const page = await readFile(written.file, 'utf8');
  assert.equal((page.match(/<h4>Warm-up iterations<\/h4>/g) ?? []).length, 1, 'only the group of the case that ran them');
  assert.match(page, /1,200 → 2,100 → 2,150/);
  assert.match(page, /<td>3<\/td><td>[^<]*<\/td><td>steady<\/td>/);
});

test("a revision side's runs table names the revision it was asked as and its commit, beside the harness's commit", async () => {
  const doc = read(EXPRESS);
  const commit = 'abcdef0123456789abcdef0123456789abcdef01';
  doc.implementation = { ...doc.implementation, name: 'express:abcdef0123', revision: { revision: 'main~2', commit } };
  const root = join(dir, 'revision');
  await mkdir(join(root, 'bench', 'forum', 'express:abcdef0123'), { recursive: true });
  await writeFile(join(root, 'bench', 'forum', 'express:abcdef0123', 'run.json'), JSON.stringify(doc));
  const page = await readFile((await writeReport(root, join(root, 'report', 'index.html'))).file, 'utf8');
  assert.match(page, /implementation <code>abcdef012345<\/code> \(<code>main~2<\/code>\); harness <code>[0-9a-f]{12}<\/code>/);
  assert.ok(!html.includes('implementation <code>'), 'a run of the checkout itself shows its commit alone');
});
