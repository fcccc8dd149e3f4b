// make lint's layout rules (harness/src/cli/lint-layout.ts): the folder cap and the declared
// workspaces, on made-up folders and sources, so a rule that silently passes everything fails here.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { oversizeFolders } from '../src/layout/folder-size.ts';
import { importedPackages, undeclared, type Workspace } from '../src/layout/workspace-deps.ts';

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
    "import { a } from '@fairbench/harness/paths.ts';",
    "export { b } from '@fairbench/conformance/run.ts';",
    "const c = await import('@fairbench/bench/plan/apis.ts');",
    "import '@fairbench/pact';",
    '// @fairbench/apis is found by folder',
  ].join('\n');
  assert.deepEqual([...importedPackages(source)].sort(), ['@fairbench/bench', '@fairbench/conformance', '@fairbench/harness', '@fairbench/pact']);
});

test('runtime files need dependencies, tests either field; the workspace itself and other packages are free', () => {
  const ws: Workspace = {
    dir: '/r/bench',
    name: '@fairbench/bench',
    dependencies: new Set(['@fairbench/pact']),
    devDependencies: new Set(['@fairbench/apis']),
  };
  const names = new Set(['@fairbench/harness', '@fairbench/pact', '@fairbench/apis', '@fairbench/bench']);
  const source =
    "import '@fairbench/harness/x.ts';\nimport '@fairbench/pact/y.ts';\nimport '@fairbench/apis/z.ts';\nimport '@fairbench/bench/w.ts';\nimport 'yaml';";
  assert.deepEqual(undeclared(ws, '/r/bench/src/run.ts', source, names), [
    { name: '@fairbench/harness', field: 'dependencies' },
    { name: '@fairbench/apis', field: 'dependencies' },
  ]);
  assert.deepEqual(undeclared(ws, '/r/bench/test/plan/a.test.ts', source, names), [{ name: '@fairbench/harness', field: 'devDependencies' }]);
});
