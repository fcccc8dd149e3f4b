// make k6-operator: a forum case as a k6-operator TestRun, checked against k6-operator's
// TestRun CRD (bench/schemas/k6-operator/, no cluster), its k6 archive against the run the
// local runner would make of the same case (k6 inspect, the archive's environment), and the
// runners' k6 command run here on the archive (against a stand-in server on 127.0.0.1).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';
import { runCommand } from '@fairbench/harness/process.ts';
import { forumK6Env, type ForumCase } from '@fairbench/apis/forum/bench/index.ts';
import { PAPER_SCALE } from '@fairbench/apis/forum/dataset/model.ts';
import { benchApi, type BenchApi } from '../../src/plan/apis.ts';
import { mergeRunnerResults } from '../../src/k6-operator/results.ts';
import { k6Version, measuredFromK6, scriptEnv, type K6Summary, type RunSettings } from '../../src/load/k6.ts';
import {
  ARCHIVE_KEY,
  clusterManifest,
  K6_OPERATOR_VERSION,
  manifestComment,
  manifestYaml,
  runnerResults,
  testRunName,
  type ClusterCase,
  type ClusterManifest,
  type ClusterOptions,
} from '../../src/k6-operator/operator.ts';
import { clusterCases, inspectArchive } from '../../src/k6-operator/inputs.ts';
import { testRunValidator, type TestRunCheck } from '../../src/k6-operator/schema.ts';
import { k6Binary } from '../../src/paths.ts';
import { chooseProfile } from '../../src/plan/profiles.ts';

const BASE_URL = 'http://forum-express.bench.svc:3000';
const CLI = fileURLToPath(new URL('../../src/cli/k6-operator.ts', import.meta.url));

let api: BenchApi;
let forumCase: ForumCase;
let settings: RunSettings;
let input: ClusterCase;
let options: ClusterOptions;
let manifest: ClusterManifest;
let check: TestRunCheck;
let work: string;

before(async () => {
  work = await mkdtemp(join(os.tmpdir(), 'fairbench-k6-operator-test-'));
  api = await benchApi('forum');
  // The first REST closed-model case of the quick profile, with the quick profile's window.
  const { profile } = await chooseProfile('quick', false);
  const plan = await api.module.plan({ quick: true, cases: 'rest/closed/*' }, api.scenarioFile);
  forumCase = plan.cases[0] as ForumCase;
  settings = { warmupSeconds: Math.max(profile.warmupSeconds, profile.firstWarmupSeconds), durationSeconds: profile.durationSeconds, seed: 1 };
  [input] = (await clusterCases({ api, cases: [forumCase], settings, baseUrl: BASE_URL, runId: 'test-run' })) as [ClusterCase];
  options = {
    parallelism: 3,
    namespace: 'bench',
    k6Version: await k6Version(),
    resultsClaim: 'fairbench-results',
    resultsDir: 'fairbench/forum/test-run',
    separate: true,
  };
  manifest = clusterManifest(input, options);
  check = await testRunValidator();
});

after(() => rm(work, { recursive: true, force: true }));

/** The YAML file's documents, as kubectl would read them. */
function documents(text: string): Record<string, any>[] {
  return parseAllDocuments(text)
    .map((d) => d.toJS() as Record<string, any>)
    .filter((d) => d !== null);
}

test(`the forum case's TestRun passes k6-operator ${K6_OPERATOR_VERSION}'s CRD, as written to its file`, () => {
  assert.equal(forumCase.id, 'rest/closed/c100-r1-j0');
  const docs = documents(manifestYaml(manifest, manifestComment(input, manifest, options)));
  assert.deepEqual(
    docs.map((d) => d['kind']),
    ['ConfigMap', 'TestRun'],
    'the ConfigMap first: the initializer needs it',
  );
  const testRun = docs[1]!;
  assert.deepEqual(check(testRun), []);
  assert.deepEqual(testRun, JSON.parse(JSON.stringify(manifest.testRun)), 'the YAML is the object');
  const spec = testRun['spec'];
  assert.equal(spec.parallelism, 3);
  assert.equal(spec.separate, true, 'runners on distinct nodes');
  assert.deepEqual(spec.script, { configMap: { name: docs[0]!['metadata'].name, file: ARCHIVE_KEY } });
  // The runners (and the initializer) run the official image of the local runner's k6 version.
  const version = options.k6Version.replace(/^v/, '');
  assert.match(version, /^\d+\.\d+\.\d+$/);
  assert.equal(spec.runner.image, `grafana/k6:${version}`);
  assert.equal(spec.initializer.image, `grafana/k6:${version}`);
  // No usage report from any k6 the operator starts.
  for (const pod of [spec.runner, spec.initializer])
    assert.ok(pod.env.some((e: { name: string; value?: string }) => e.name === 'K6_NO_USAGE_REPORT' && e.value === 'true'));
  assert.match(spec.arguments, /(^| )--no-usage-report( |$)/);
  // The archive travels unchanged.
  assert.deepEqual(Buffer.from(docs[0]!['binaryData'][ARCHIVE_KEY], 'base64'), Buffer.from(input.archive));
});

test('each runner writes its summary and its samples to a directory of its own on the claim', () => {
  const spec = manifest.testRun.spec as Record<string, any>;
  assert.equal(spec.arguments, '-e SUMMARY_PATH=/results/summary.json --out csv=/results/samples.csv --no-usage-report');
  const [mount] = spec.runner.volumeMounts as { name: string; mountPath: string; subPathExpr: string }[];
  assert.equal(mount!.mountPath, '/results');
  assert.deepEqual(spec.runner.volumes, [{ name: mount!.name, persistentVolumeClaim: { claimName: 'fairbench-results' } }]);
  // The directory is the runner's Job name (<TestRun>-<i>, from its pod's job-name label): what layout.json lists.
  const runnerVar = /\$\((\w+)\)$/.exec(mount!.subPathExpr)?.[1];
  assert.deepEqual(spec.runner.env.find((e: { name: string }) => e.name === runnerVar)?.valueFrom, { fieldRef: { fieldPath: "metadata.labels['job-name']" } });
  assert.deepEqual(
    manifest.runners.map((r) => r.runner),
    [1, 2, 3].map((i) => `forum-rest-closed-c100-r1-j0-${i}`),
  );
  for (const r of manifest.runners) {
    const dir = mount!.subPathExpr.replace(`$(${runnerVar})`, r.runner);
    assert.equal(dir, `fairbench/forum/test-run/rest/closed/c100-r1-j0/${r.runner}`);
    assert.deepEqual([r.summary, r.samples], [`${dir}/summary.json`, `${dir}/samples.csv`]);
  }
  assert.equal(new Set(manifest.runners.map((r) => r.summary)).size, 3, 'no two runners share a file');
  // The initializer only inspects the archive: it mounts no results volume (no stray directory).
  assert.equal(spec.initializer.volumes, undefined);
});

test('the CRD refuses broken TestRuns: a string parallelism, an unknown field, a value outside an enum, no script', () => {
  const broken = (edit: (t: Record<string, any>) => void) => {
    const t = JSON.parse(JSON.stringify(manifest.testRun)) as Record<string, any>;
    edit(t);
    return check(t).join('\n');
  };
  assert.match(
    broken((t) => (t['spec'].parallelism = '3')),
    /\/spec\/parallelism must be integer/,
  );
  assert.match(
    broken((t) => (t['spec'].parallelism = 2 ** 31)),
    /\/spec\/parallelism must match format "int32"/,
  );
  // kubectl's strict field validation refuses a field the CRD does not have (here a typo).
  assert.match(
    broken((t) => (t['spec'].runner.volumeMount = t['spec'].runner.volumeMounts)),
    /\/spec\/runner must NOT have additional properties/,
  );
  assert.match(
    broken((t) => (t['spec'].cleanup = 'always')),
    /\/spec\/cleanup must be equal to one of the allowed values/,
  );
  assert.match(
    broken((t) => delete t['spec'].script),
    /\/spec must have required property 'script'/,
  );
  assert.match(
    broken((t) => (t['apiVersion'] = 'k6.io/v1')),
    /\/apiVersion must be equal to constant/,
  );
  assert.match(
    broken((t) => (t['metadata'].annotations['fairbench/x'] = 1)),
    /\/metadata\/annotations\/fairbench~1x must be string/,
  );
  // A list-type map (keyed by name) holds each key once.
  assert.match(
    broken((t) => (t['spec'].runner.resources = { claims: [{ name: 'gpu' }, { name: 'gpu' }] })),
    /\/spec\/runner\/resources\/claims must pass "x-kubernetes-list-type" keyword validation/,
  );
  assert.deepEqual(
    check({ ...manifest.testRun, spec: { ...manifest.testRun.spec, runner: { resources: { claims: [{ name: 'gpu' }, { name: 'ssd' }] } } } }),
    [],
  );
});

test("the archive carries the local runner's scenario and environment for the case", async () => {
  // The environment as make bench gives this case (SUMMARY_PATH aside), the id ranges from the paper scale.
  const ids = { comment: PAPER_SCALE.entities * PAPER_SCALE.commentsPerUser, user: PAPER_SCALE.entities };
  const env = scriptEnv(BASE_URL, settings.warmupSeconds + settings.durationSeconds, forumK6Env(forumCase.forum, settings, ids));
  assert.deepEqual(input.env, env);
  const archive = join(work, 'archive.tar');
  await writeFile(archive, Buffer.from(manifest.configMap.binaryData[ARCHIVE_KEY]!, 'base64'));
  const { stdout: metadata } = await runCommand('tar', ['-xOf', archive, 'metadata.json']);
  assert.deepEqual((JSON.parse(metadata) as { env: Record<string, string> }).env, Object.fromEntries(Object.entries(env).map(([k, v]) => [k, String(v)])));
  const { stdout: files } = await runCommand('tar', ['-tf', archive]);
  for (const imported of ['bench/k6/measure.js', 'bench/k6/prng.js'])
    assert.ok(
      files.split('\n').some((f) => f.endsWith(imported)),
      `the archive holds ${imported}`,
    );

  // k6 inspect of the archive: the closed model's constant VUs over the warm-up and the window.
  const inspected = await inspectArchive(Buffer.from(manifest.configMap.binaryData[ARCHIVE_KEY]!, 'base64'));
  const scenario = inspected.scenarios?.['forum'];
  assert.equal(scenario?.['executor'], 'constant-vus');
  assert.equal(scenario?.['vus'], forumCase.forum.concurrency);
  assert.equal(scenario?.['duration'], `${settings.warmupSeconds + settings.durationSeconds}s`);
  // … the same options k6 reads from the script itself with the local runner's -e values.
  const local = spawnSync(k6Binary, ['inspect', '--no-color', ...Object.entries(env).flatMap(([k, v]) => ['-e', `${k}=${v}`]), api.script], {
    encoding: 'utf8',
    env: { ...process.env, K6_NO_USAGE_REPORT: 'true' },
  });
  assert.equal(local.status, 0, local.stderr);
  const fromScript = JSON.parse(local.stdout) as Record<string, unknown>;
  // (The archive also records k6's default systemTags, which the script leaves unset.)
  for (const option of ['scenarios', 'thresholds', 'summaryTrendStats', 'discardResponseBodies'])
    assert.deepEqual(inspected[option], fromScript[option], option);
});

test("the runners' k6 command on the archive: each runner's share of the VUs, its summary and samples where the manifest says", async () => {
  // What k6-operator runs in runner i of N (k6-operator:pkg/resources/jobs/runner.go): k6 run, its
  // execution segment, the TestRun's arguments, the archive; here against a stand-in for the
  // implementation on 127.0.0.1 (BASE_URL overridden), each runner's directory made as the
  // kubelet makes the subPathExpr's.
  const server = createServer((req, res) => {
    const id = /^\/comment\/(\d+)$/.exec(req.url ?? '')?.[1];
    res.writeHead(id ? 200 : 404, { 'Content-Type': 'application/json' });
    res.end(id ? JSON.stringify({ comment_id: Number(id), thread_id: 1, user_id: 1, body: 'b', datemade: null, datelastupdated: null }) : '{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const port = (server.address() as AddressInfo).port;
    const archive = join(work, 'runner-archive.tar');
    await writeFile(archive, Buffer.from(manifest.configMap.binaryData[ARCHIVE_KEY]!, 'base64'));
    const spec = manifest.testRun.spec as { arguments: string; parallelism: number };
    const n = spec.parallelism;
    const fraction = (k: number) => (k === 0 ? '0' : k === n ? '1' : `${k}/${n}`);
    const sequence = Array.from({ length: n + 1 }, (_, k) => fraction(k)).join(',');
    const summaries = await Promise.all(
      manifest.runners.map(async (r, k) => {
        const dir = join(work, 'claim', r.runner);
        await mkdir(dir, { recursive: true });
        const args = spec.arguments.split(/\s+/).map((a) => a.replaceAll('/results/', `${dir}/`));
        await runCommand(
          k6Binary,
          [
            'run',
            '--quiet',
            '--no-color',
            '--address',
            '',
            `--execution-segment=${fraction(k)}:${fraction(k + 1)}`,
            `--execution-segment-sequence=${sequence}`,
            ...args,
            '-e',
            `BASE_URL=http://127.0.0.1:${port}`,
            archive,
          ],
          { env: { ...process.env, K6_NO_USAGE_REPORT: 'true' } },
        );
        const samples = await readFile(join(dir, 'samples.csv'), 'utf8');
        assert.match(samples, /^metric_name,timestamp,metric_value,/);
        assert.ok(samples.includes('http_reqs,'), `${r.runner}: samples of its requests`);
        return JSON.parse(await readFile(join(dir, 'summary.json'), 'utf8')) as K6Summary;
      }),
    );
    // The case's 100 VUs split between the runners; each summary is a measured window the local runner reads.
    assert.deepEqual(
      summaries.map((s) => s.metrics['vus_max']?.values['max']),
      [34, 33, 33],
    );
    for (const summary of summaries) {
      const measured = measuredFromK6(summary);
      assert.ok(measured.requests > 0 && Object.keys(measured.errors).length === 0, JSON.stringify(measured.errors));
    }
    // Collected from the claim, the runners' directories merge into one measurement (k6-operator aggregates none).
    const merged = await mergeRunnerResults(join(work, 'claim'));
    assert.deepEqual(
      merged.runners.map((r) => r.runner),
      manifest.runners.map((r) => r.runner),
    );
    assert.equal(
      merged.measured.requests,
      summaries.reduce((n, s) => n + measuredFromK6(s).requests, 0),
      'every runner counted once',
    );
    const medians = summaries.map((s) => measuredFromK6(s).latencyMs.median);
    assert.ok(
      merged.measured.latencyMs.median >= Math.min(...medians) && merged.measured.latencyMs.median <= Math.max(...medians),
      "the merged median lies among the runners'",
    );
  } finally {
    server.close();
  }
});

test("TestRun names fit k6-operator's Job and Service names (DNS labels) and stay distinct", () => {
  assert.equal(testRunName('forum', 'rest/closed/c100-r1-j0', 3), 'forum-rest-closed-c100-r1-j0');
  const long = ['rest/arrivals/register-login-delete-u1000-t5-with-a-longer-tail', 'rest/arrivals/register-login-delete-u1000-t5-with-a-longer-tail2'];
  const names = long.map((id) => testRunName('users', id, 100));
  assert.notEqual(names[0], names[1]);
  for (const name of names) {
    assert.ok(`${name}-service-100`.length <= 63, name);
    assert.match(name, /^[a-z]([-a-z0-9]*[a-z0-9])?$/);
  }
  assert.deepEqual(
    runnerResults('x', 'd/c', 2).map((r) => [r.instance, r.summary]),
    [
      [1, 'd/c/x-1/summary.json'],
      [2, 'd/c/x-2/summary.json'],
    ],
  );
  assert.throws(() => clusterManifest(input, { ...options, resultsDir: '../elsewhere' }), /relative path/);
  assert.throws(() => clusterManifest(input, { ...options, parallelism: 0 }), /parallelism/);
});

test('make k6-operator writes the manifest and the layout; a missing BASE_URL or a bad PARALLELISM is a usage error', async () => {
  const node = process.execPath;
  const usage = (args: string[]) => spawnSync(node, [CLI, '--api', 'forum', ...args], { encoding: 'utf8' });
  const noUrl = usage(['--parallelism', '2']);
  assert.equal(noUrl.status, 2, noUrl.stderr);
  assert.match(noUrl.stderr, /give BASE_URL/);
  const zero = usage(['--parallelism', '0', '--base-url', BASE_URL]);
  assert.equal(zero.status, 2, zero.stderr);
  assert.match(zero.stderr, /PARALLELISM must be a number from 1/);

  const out = join(work, 'out');
  const run = usage(['--quick', '--cases', 'rest/closed/c100-r1-j0', '--parallelism', '2', '--base-url', `${BASE_URL}/`, '--namespace', 'bench', '--out', out]);
  assert.equal(run.status, 0, run.stderr);
  assert.deepEqual((await readdir(out)).sort(), ['forum-rest-closed-c100-r1-j0.yaml', 'layout.json']);
  const [, testRun] = documents(await readFile(join(out, 'forum-rest-closed-c100-r1-j0.yaml'), 'utf8'));
  assert.deepEqual(check(testRun), []);
  const layout = JSON.parse(await readFile(join(out, 'layout.json'), 'utf8')) as {
    cases: { case: string; testRun: string; runners: { summary: string; samples: string }[] }[];
  };
  assert.deepEqual(
    layout.cases.map((c) => [c.case, c.testRun, c.runners.length]),
    [['rest/closed/c100-r1-j0', 'forum-rest-closed-c100-r1-j0', 2]],
  );
  assert.match(run.stdout, /<TestRun name>-<i>\/summary\.json/);
});
