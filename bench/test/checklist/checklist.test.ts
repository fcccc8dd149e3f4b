// make checklist on a fixture: a throwaway root laid out as the repository, with an
// implementation that has some steps done, some missing and some stale; the checklist must name
// exactly those. Fingerprints are fixed here (the real ones are the gate's, tested with it); the
// last test runs the command itself on a real implementation, with them.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { readImplManifest } from '@fairbench/harness/impl/manifest.ts';
import { repoRoot } from '@fairbench/harness/paths.ts';
import { checklist, formatChecklist, type Row } from '../../src/checklist/checklist.ts';
import { loadContext, type Fingerprints } from '../../src/checklist/context.ts';
import { STEPS } from '../../src/checklist/steps.ts';

const HASHES = { implTreeHash: 'sha256:impl', specHash: 'sha256:spec', suiteHash: 'sha256:suite' };
const fingerprints: Fingerprints = {
  conformance: async () => HASHES,
  pact: async (api) => (api === 'alpha' ? { implTreeHash: HASHES.implTreeHash, contractHash: 'sha256:contract' } : null),
  changedAt: async () => new Date('2026-01-01T00:00:00Z'),
};

const LATER = '2026-02-01T00:00:00.000Z';
const verdict = (api: string, extra: object = {}) =>
  JSON.stringify({
    schemaVersion: 1,
    implementation: 'fixture',
    api,
    status: 'passed',
    recordedAt: LATER,
    passed: 9,
    failed: 0,
    total: 9,
    failing: [],
    ...HASHES,
    ...extra,
  });
const ROW = '| fixture | ✅ 9/9 | ✅ 9/9 |';
const MATRIX = `| implementation | alpha | beta |\n| --- | --- | --- |\n${ROW}\n`;
const closing = (line: string) => `Seed: 1\n\n=========== ${line} ===========\n`;

/** alpha has a pact and resilience requests, beta neither. */
const FILES: Record<string, string> = {
  'impl/fixture/impl.yaml': [
    'name: fixture',
    'language: JavaScript',
    'framework: { name: Fixture, version: "1.0.0" }',
    'runtime: { name: node, version: ">=24" }',
    'apis: [alpha, beta]',
    'toolchain: [node, npm]',
    'start: node src/server.js',
    'test: npm test',
    'dockerfile: Dockerfile',
    'tuning: "..."',
  ].join('\n'),
  'impl/fixture/package.json': JSON.stringify({ name: 'fixture', dependencies: { web: '2.0.0' } }),
  'impl/fixture/package-lock.json': JSON.stringify({ lockfileVersion: 3, packages: { '': { name: 'fixture', dependencies: { web: '1.9.0' } } } }),
  'impl/fixture/.dockerignore': 'node_modules\n',
  'impl/fixture/Dockerfile': 'ARG BASE_IMAGE\nFROM ${BASE_IMAGE}\n',
  'apis/alpha/api.yaml': 'name: alpha\npact: pact/index.ts\n',
  'apis/alpha/resilience/requests.yaml': 'requests: []\n',
  'apis/alpha/conformance/mutants/fixture.yaml': 'mutants: []\n',
  'apis/alpha/resilience/mutants/fixture.yaml': 'mutants: []\n',
  'apis/beta/api.yaml': 'name: beta\n',
  'images/images.yaml': 'node: { official: "node:24" }\n',
  'results/conformance/fixture/alpha.json': verdict('alpha', { provider: 'containers' }),
  'results/conformance/fixture/beta.json': verdict('beta', { implTreeHash: 'sha256:older' }),
  'results/conformance/fixture/alpha.resilience.json': JSON.stringify({
    implementation: 'fixture',
    api: 'alpha',
    status: 'passed',
    short: true,
    recordedAt: LATER,
    passed: 5,
    total: 5,
    scenarios: [],
  }),
  'results/conformance/matrix.md': MATRIX,
  'results/fuzz/fixture/alpha-rest.log': closing('2 failures in 4.10s'),
  'results/fuzz/fixture/beta-rest.log': closing('1 warning in 0.77s'),
  'results/bench/alpha/fixture/2026-02-01T00-00-00Z.json': JSON.stringify({ runId: '2026-02-01T00-00-00Z', gate: HASHES }),
  'docs/layout.md': 'impl/<name>/\n  fixture/            Fixture 1\n',
  'docs/status.md': '| forum (MySQL) | REST | express, hapi |\n',
  'README.md': `<!-- generated:matrix -->\n${MATRIX}<!-- /generated:matrix -->\n`,
};

/** What the fixture lacks, as `step · api` → state; every other step is done. */
const NOT_DONE = {
  'manifest-resilience': 'missing',
  'manifest-tuning': 'missing',
  lock: 'stale',
  'conformance · beta': 'stale',
  'defects · beta': 'missing',
  'pact · alpha': 'missing',
  'pact-defects · alpha': 'missing',
  readme: 'missing',
  'docs-status': 'missing',
  'fuzz · alpha': 'missing',
  'bench · beta': 'missing',
};

const key = (r: Row) => (r.api ? `${r.id} · ${r.api}` : r.id);
const notDone = (rows: readonly Row[]) => Object.fromEntries(rows.filter((r) => r.state !== 'done').map((r) => [key(r), r.state]));

describe('make checklist', () => {
  let root: string;
  const write = async (path: string, text: string) => {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), text);
  };
  const rowsOf = async () => checklist(await loadContext(root, 'fixture', fingerprints));

  before(async () => {
    root = await mkdtemp(join(os.tmpdir(), 'fairbench-checklist-'));
    for (const [path, text] of Object.entries(FILES)) await write(path, text);
  });
  after(() => rm(root, { recursive: true, force: true }));

  it('names exactly the steps the fixture lacks, missing or stale', async () => {
    const rows = await rowsOf();
    assert.deepEqual(notDone(rows), NOT_DONE);
    // Steps per API: one for each API the manifest lists, or only those with a pact or resilience requests.
    assert.deepEqual(rows.filter((r) => r.id === 'conformance' || r.id === 'pact' || r.id === 'resilience').map(key), [
      'conformance · alpha',
      'conformance · beta',
      'pact · alpha',
      'resilience · alpha',
    ]);
  });

  it('gives each step the command that does it, and says why', async () => {
    const rows = await rowsOf();
    const row = (k: string) => rows.find((r) => key(r) === k)!;
    assert.equal(row('conformance · beta').command, 'make conformance IMPL=fixture API=beta RUNTIME=local');
    assert.match(row('conformance · beta').why, /stale: the implementation changed/);
    assert.equal(row('pact · alpha').command, 'make pact IMPL=fixture API=alpha');
    assert.match(row('lock').why, /dependencies\.web: 2\.0\.0 in the project file, 1\.9\.0 in the lock file/);
    assert.match(row('fuzz · alpha').why, /2 failures/);
    const text = formatChecklist(await loadContext(root, 'fixture', fingerprints), rows);
    assert.match(text, /^impl\/fixture: 26 steps .*: 15 done, 9 missing, 2 stale$/m);
    assert.match(
      text,
      /^missing §11b {2}pact verification · alpha: no verdict \(results\/pact\/fixture\/alpha\.json\)\n {14}make pact IMPL=fixture API=alpha$/m,
    );
  });

  it('counts a step done once it is, and stale once what it checked changes', async () => {
    await write('impl/fixture/README.md', '# fixture\n');
    await write('docs/status.md', '| forum (MySQL) | REST | express, hapi, fixture |\n');
    await write('results/pact/fixture/alpha.json', verdict('alpha', { contractHash: 'sha256:contract' }));
    await write('README.md', `<!-- generated:matrix -->\n${MATRIX.replace(ROW, '| fixture | ✅ 9/9 | ❌ 8/9 |')}<!-- /generated:matrix -->\n`);
    const changed = notDone(await rowsOf());
    assert.deepEqual(changed, {
      ...Object.fromEntries(Object.entries(NOT_DONE).filter(([k]) => !['readme', 'docs-status', 'pact · alpha'].includes(k))),
      'readme-row': 'stale',
    });
  });

  it('without a manifest: every step it can check is missing, the steps per API wait for the APIs', async () => {
    const rows = checklist(await loadContext(root, 'absent', fingerprints));
    const states = new Set((await rows).map((r) => r.state));
    assert.deepEqual([...states], ['missing']);
    assert.ok((await rows).every((r) => STEPS.find((s) => s.id === r.id)!.per === 'impl'));
  });

  it("each step's section is a section of docs/adding-an-implementation.md", async () => {
    const guide = await readFile(join(repoRoot, 'docs', 'adding-an-implementation.md'), 'utf8');
    const sections = new Set([...guide.matchAll(/^## (\w+)\. /gm)].map((m) => m[1]));
    for (const step of STEPS) assert.ok(sections.has(step.section), `${step.id}: no section ${step.section}. in the guide`);
  });

  it("make checklist on a real implementation: a line for every step and API, on the gate's fingerprints", async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [join(repoRoot, 'bench/src/cli/checklist.ts'), '--impl', 'hapi'], { cwd: repoRoot });
    // As many lines as the walk has rows (fixed fingerprints change states, not rows), at least one per API it serves.
    const rows = await checklist(await loadContext(repoRoot, 'hapi', fingerprints));
    const steps = stdout.split('\n').filter((l) => /^(done|missing|stale) +§/.test(l));
    assert.equal(steps.length, rows.length, stdout);
    assert.ok(rows.filter((r) => r.id === 'conformance').length === (await readImplManifest('hapi')).apis.length);
    assert.match(stdout, new RegExp(`^impl/hapi: ${steps.length} steps `, 'm'));
    assert.match(stdout, /^done +§1 +impl\.yaml, valid against its schema/m);
  });
});
