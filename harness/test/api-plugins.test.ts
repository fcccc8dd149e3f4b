// An API is a plug-in found by folder: a throwaway API (fixtures/apis/toy) is picked up by
// discovery, by the conformance suite — which runs its flows, with SQL db: steps, and its
// bad input against a toy implementation on a real MariaDB — and by the benchmark plan,
// with no registry edited anywhere. The real APIs' manifests and modules agree too.
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { after, test } from 'node:test';

// Discovery reads FAIRBENCH_APIS_DIR once, when the manifest module loads: set it first.
const FIXTURES = fileURLToPath(new URL('./fixtures/', import.meta.url));
process.env.FAIRBENCH_APIS_DIR = `${FIXTURES}apis`;
const { apiNames, loadApi, loadApis, UnknownApiError } = await import('../src/api/manifest.ts');
const { runCleanup } = await import('../src/cleanup.ts');
const { repoRoot } = await import('../src/paths.ts');
const { conformanceApi, withModule } = await import('@fairbench/conformance/apis.ts');
const { loadSpecValidators, runTarget, startDatabases, suiteFingerprints } = await import('@fairbench/conformance/run.ts');
const { benchApi } = await import('@fairbench/bench/plan/apis.ts');

after(() => runCleanup());

test('discovery: the folder is the API; an unknown name is a one-line usage error naming the known ones', async () => {
  assert.deepEqual(await apiNames(), ['toy']);
  const [toy] = await loadApis();
  assert.equal(toy?.manifest.title, 'Toy — items in one MySQL table');
  await assert.rejects(loadApi('nope'), (e: unknown) => e instanceof UnknownApiError && /no API named 'nope' \(known: toy\)/.test(String(e)));
});

test('conformance runs the throwaway API: flows with SQL db: steps and bad input pass on a correct implementation', async () => {
  const api = await conformanceApi('toy');
  const impl = {
    manifest: {
      name: 'toy',
      language: 'JavaScript',
      framework: { name: 'node:http', version: 'none' },
      runtime: { name: 'node' as const, version: '>=24' },
      apis: ['toy'],
      toolchain: ['node'],
      start: 'node server.js',
      dockerfile: 'Dockerfile',
      tuning: 'fixture',
    },
    dir: `${FIXTURES}impl/toy`,
    variant: { name: 'node', isDefault: true, folder: 'toy', path: [] },
  };
  const databases = await startDatabases(api.manifest.databases, { default: 'local' });
  const verdict = await runTarget({ impl, api }, databases, await loadSpecValidators(), await suiteFingerprints(impl.manifest.name), { onCase: () => {} });
  assert.equal(verdict.status, 'passed', JSON.stringify(verdict.cases?.filter((c) => !c.passed)));
  assert.deepEqual(
    verdict.cases?.map((c) => c.id),
    ['protocol/health', 'flows/create/stored', 'flows/create/rejected', 'bad-input/http/malformed-json'],
  );
});

test('the benchmark plans the throwaway API from its scenario file: each point with its database-alone case', async () => {
  const api = await benchApi('toy');
  assert.ok(api.script.endsWith('/apis/toy/bench/k6.js'));
  const plan = await api.module.plan({}, api.scenarioFile);
  assert.deepEqual(
    plan.cases.map((c) => c.id),
    ['rest/closed/c1', 'database/closed/c1', 'rest/closed/c4', 'database/closed/c4'],
  );
  assert.deepEqual(
    (await api.module.plan({ cases: 'rest/*/c4' }, api.scenarioFile)).cases.map((c) => c.id),
    ['rest/closed/c4', 'database/closed/c4'],
  );
});

test("every real API's conformance module prepares exactly the suites its manifest lists", async () => {
  for (const name of await apiNames(`${repoRoot}/apis`)) {
    const api = await withModule(await loadApi(name, `${repoRoot}/apis`));
    assert.deepEqual([...api.module.suites].sort(), [...api.manifest.conformance.suites].sort(), name);
  }
});
