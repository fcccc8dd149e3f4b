// make lint's layout rules (harness/src/cli/lint-layout.ts): the folder cap and the declared
// workspaces, on made-up folders and sources (scope @acme: the check reads this file too, so
// it names no real workspace), so a rule that silently passes everything fails here.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { oversizeFolders } from '../../src/layout/folder-size.ts';
import { importedPackages, undeclared, type Workspace } from '../../src/layout/workspace-deps.ts';

test('a folder over the cap is named with its count; one at the cap is not', () => {
  const files = (n: number) => Array.from({ length: n }, (_, i) => `f${i}.ts`);
  const folders = new Map([
    ['/r/bench/test', files(16)],
    ['/r/bench/src/execute', files(15)],
  ]);
  assert.deepEqual(oversizeFolders(folders, '/r'), ['bench/test: 16 files (at most 15)']);
});

test('static, re-exported and dynamic imports name their package; prose does not', () => {
  const source = [
    "import { a } from '@acme/harness/paths.ts';",
    "export { b } from '@acme/conformance/run.ts';",
    "const c = await import('@acme/bench/plan/apis.ts');",
    "import '@acme/pact';",
    '// @acme/apis is found by folder',
  ].join('\n');
  assert.deepEqual([...importedPackages(source)].sort(), ['@acme/bench', '@acme/conformance', '@acme/harness', '@acme/pact']);
});

test('runtime files need dependencies, tests either field; the workspace itself and other packages are free', () => {
  const ws: Workspace = {
    dir: '/r/bench',
    name: '@acme/bench',
    dependencies: new Set(['@acme/pact']),
    devDependencies: new Set(['@acme/apis']),
  };
  const names = new Set(['@acme/harness', '@acme/pact', '@acme/apis', '@acme/bench']);
  const source = "import '@acme/harness/x.ts';\nimport '@acme/pact/y.ts';\nimport '@acme/apis/z.ts';\nimport '@acme/bench/w.ts';\nimport 'yaml';";
  assert.deepEqual(undeclared(ws, '/r/bench/src/run.ts', source, names), [
    { name: '@acme/harness', field: 'dependencies' },
    { name: '@acme/apis', field: 'dependencies' },
  ]);
  assert.deepEqual(undeclared(ws, '/r/bench/test/plan/a.test.ts', source, names), [{ name: '@acme/harness', field: 'devDependencies' }]);
});
