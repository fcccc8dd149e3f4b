// Merging k6 instances that shared a scenario through execution segments, with real k6
// runs of a fixed number of iterations against a small server with jittered answers:
// one instance's samples must give its own summary's trends (the percentiles and the tag
// matching are k6's), and two segments' merge must count the fixed total and give the
// percentiles of both instances' samples together.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { promisify } from 'node:util';
import { checkK6Samples, k6Percentile, k6Trends, k6TrendStats, mergeK6Summaries, type K6Instance } from '../../src/load/k6-merge.ts';
import { measuredFromK6, type K6Summary } from '../../src/load/k6.ts';
import { k6Binary } from '../../src/paths.ts';

const ITERATIONS = 400;
const script = new URL('../fixtures/k6-merge.js', import.meta.url).pathname;
const dir = await mkdtemp(join(os.tmpdir(), 'fairbench-k6-merge-test-'));

// Iteration i asks /fast or /slow (i even or odd); every tenth (i % 10 = 3, a slow one) fails with 500.
const server = createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://x');
  const i = Number(url.searchParams.get('i'));
  const jitterMs = url.pathname === '/slow' ? 3 + Math.random() * 9 : Math.random() * 3;
  setTimeout(() => res.writeHead(i % 10 === 3 ? 500 : 200).end('ok'), jitterMs);
});
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
after(async () => {
  server.close();
  await rm(dir, { recursive: true, force: true });
});

async function runK6(label: string, segment: string[]): Promise<K6Instance> {
  const summaryPath = join(dir, `${label}.json`);
  const samplesFile = join(dir, `${label}.csv`);
  const vars = {
    BASE_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    ITERATIONS,
    VUS: 4,
    SUMMARY_PATH: summaryPath,
    TIMELINE_SECONDS: 3,
    APDEX_T_MS: 5,
    APDEX_F_MS: 20,
  };
  const args = [
    'run',
    '--quiet',
    '--no-color',
    '--address',
    '',
    '--out',
    `csv=${samplesFile}`,
    ...segment,
    ...Object.entries(vars).flatMap(([k, v]) => ['-e', `${k}=${v}`]),
    script,
  ];
  await promisify(execFile)(k6Binary, args, { env: { ...process.env, K6_NO_USAGE_REPORT: 'true' }, timeout: 20_000, killSignal: 'SIGKILL' });
  return { summary: JSON.parse(await readFile(summaryPath, 'utf8')) as K6Summary, samplesFile };
}

const SEQUENCE = ['--execution-segment-sequence', '0,1/2,1'];
const [whole, first, second] = await Promise.all([
  runK6('whole', []),
  runK6('first', ['--execution-segment', '0:1/2', ...SEQUENCE]),
  runK6('second', ['--execution-segment', '1/2:1', ...SEQUENCE]),
]);
const count = (i: K6Instance, key: string) => i.summary.metrics[key]?.values['count'];

/** http_req_duration of the measured window, read from the CSV the plain way (no quoted fields in these runs). */
async function measuredDurations(file: string, name?: string): Promise<number[]> {
  const [header, ...rows] = (await readFile(file, 'utf8')).trimEnd().split('\n');
  const columns = header!.split(',');
  const at = (c: string) => columns.indexOf(c);
  return rows.flatMap((row) => {
    assert.ok(!row.includes('"'), row);
    const f = row.split(',');
    const tags = new Set(f[at('extra_tags')]!.split('&'));
    const keep = f[at('metric_name')] === 'http_req_duration' && tags.has('phase=measure') && (name === undefined || f[at('name')] === name);
    return keep ? [Number(f[at('metric_value')])] : [];
  });
}

test("k6's percentile: linear interpolation at p·(n−1)", () => {
  assert.equal(k6Percentile([], 0.5), 0);
  assert.equal(k6Percentile([7], 0.99), 7);
  assert.equal(k6Percentile([1, 2, 3, 4], 0.5), 2.5);
  const oneToTen = Float64Array.from({ length: 10 }, (_, i) => i + 1);
  assert.ok(Math.abs(k6Percentile(oneToTen, 0.95) - 9.55) < 1e-12);
  assert.equal(k6Percentile(oneToTen, 0), 1);
  assert.equal(k6Percentile(oneToTen, 1), 10);
  assert.deepEqual(k6TrendStats(Float64Array.of(1, 2, 3, 4), ['min', 'p(25)', 'avg', 'med', 'p(75)', 'max', 'count']), {
    min: 1,
    'p(25)': 1.75,
    avg: 2.5,
    med: 2.5,
    'p(75)': 3.25,
    max: 4,
    count: 4,
  });
  assert.deepEqual(k6TrendStats(new Float64Array(0), ['min', 'avg', 'p(99)', 'count']), { min: 0, avg: 0, 'p(99)': 0, count: 0 });
});

test("one instance: its samples give its own summary's trends", async () => {
  assert.equal(count(whole, 'http_reqs{phase:measure}'), ITERATIONS);
  const trends = await k6Trends(whole.summary, whole.samplesFile);
  for (const key of [
    'http_req_duration{phase:measure}',
    'http_req_duration{phase:measure,name:slow}',
    'server_ms{phase:measure}',
    'http_req_duration{sec:0}',
  ]) {
    assert.ok(key in trends, key);
  }
  assert.ok(
    trends['http_req_duration{phase:measure,name:slow}']!['p(90)']! > trends['http_req_duration{phase:measure,name:fast}']!['p(90)']!,
    'jitter: slow is slower',
  );
  for (const [key, stats] of Object.entries(trends)) {
    for (const [stat, v] of Object.entries(stats)) {
      const k6 = whole.summary.metrics[key]!.values[stat]!;
      assert.ok(Math.abs(v - k6) <= 1e-6 + 1e-9 * Math.abs(k6), `${key} ${stat}: k6 ${k6}, samples ${v}`);
    }
  }
  await checkK6Samples(whole);
});

test('two segments: counts add up to the fixed total, percentiles are those of all samples', async () => {
  assert.equal(count(first, 'http_reqs{phase:measure}'), ITERATIONS / 2);
  assert.equal(count(second, 'http_reqs{phase:measure}'), ITERATIONS / 2);
  const merged = await mergeK6Summaries([first, second]);
  const at = (key: string) => merged.metrics[key]!.values;
  assert.equal(at('http_reqs').count, ITERATIONS);
  assert.equal(at('http_reqs{phase:measure}').count, ITERATIONS);
  assert.equal(at('errors{phase:measure,status:500}').count, ITERATIONS / 10);
  assert.equal(at('errors{phase:measure,status:404}').count, 0);
  assert.equal(at('failed').passes, ITERATIONS / 10);
  assert.equal(at('http_req_duration{phase:measure}').count, ITERATIONS);
  for (const name of [undefined, 'slow']) {
    const key = `http_req_duration{phase:measure${name ? `,name:${name}` : ''}}`;
    const all = Float64Array.from([...(await measuredDurations(first.samplesFile, name)), ...(await measuredDurations(second.samplesFile, name))]).sort();
    assert.deepEqual(at(key), k6TrendStats(all, Object.keys(first.summary.metrics[key]!.values)), key);
  }
  assert.equal(merged.setup_data?.measureFrom, Math.min(first.summary.setup_data!.measureFrom!, second.summary.setup_data!.measureFrom!));
  assert.equal(merged.measureUntil, Math.max(first.summary.measureUntil!, second.summary.measureUntil!));

  const m = measuredFromK6(merged);
  assert.equal(m.requests, ITERATIONS);
  assert.deepEqual(m.errors, { '500': ITERATIONS / 10 });
  assert.equal(m.requestTypes?.['fast']?.requests, ITERATIONS / 2);
  assert.equal(m.requestTypes?.['slow']?.errors, ITERATIONS / 10);
  assert.equal(m.latencyMs.p99, Math.round(at('http_req_duration{phase:measure}')['p(99)']! * 1000) / 1000);
  assert.ok(m.latencyMs.sd !== undefined, 'the latency sums add up to the merged mean');
  assert.equal(m.apdex?.requests, ITERATIONS);
  assert.equal(
    m.timeline?.reduce((n, p) => n + p.requests, 0),
    ITERATIONS,
  );
});

test('what cannot be merged exactly throws', async () => {
  const otherApdex = { ...second, summary: { ...second.summary, apdex: { tMs: 1, fMs: 4 } } };
  await assert.rejects(mergeK6Summaries([first, otherApdex]), /apdex/);
  // A samples file cut short no longer gives its instance's summary.
  const lines = (await readFile(second.samplesFile, 'utf8')).split('\n');
  const cut = join(dir, 'cut.csv');
  await writeFile(cut, lines.slice(0, lines.length / 2).join('\n'));
  await assert.rejects(mergeK6Summaries([first, { ...second, samplesFile: cut }]), /do not give its summary/);
});
