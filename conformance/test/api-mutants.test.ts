// Mutants of an API's own code: an edit on a scratch copy of the API folder, its own tests
// run on the copy, and the mutant counts as killed only when every named test fails.
import assert from 'node:assert/strict';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, test } from 'node:test';
import type { Api } from '@fairbench/harness/api/manifest.ts';
import { resultsDir } from '@fairbench/harness/paths.ts';
import { failingTests, runApiMutant, type ApiMutant } from '../src/api-mutants.ts';

const dir = join(resultsDir, 'test-api-mutants', 'adder');
after(() => rm(join(resultsDir, 'test-api-mutants'), { recursive: true, force: true }));

async function adderApi(): Promise<Api> {
  await mkdir(join(dir, 'dataset'), { recursive: true });
  await mkdir(join(dir, 'test'), { recursive: true });
  await writeFile(join(dir, 'dataset', 'add.js'), 'export const add = (a, b) => a + b;\n');
  await writeFile(
    join(dir, 'test', 'add.test.ts'),
    "import assert from 'node:assert/strict';\nimport { test } from 'node:test';\nimport { add } from '../dataset/add.js';\n" +
      "test('adds', () => assert.equal(add(2, 3), 5));\ntest('adds zero', () => assert.equal(add(2, 0), 2));\n",
  );
  return { dir, manifest: { name: 'adder' } as Api['manifest'] };
}

const mutant = (killedBy: string[]): ApiMutant => ({
  id: 'subtracts',
  why: 'a - b',
  file: 'dataset/add.js',
  replace: 'a + b',
  with: 'a - b',
  tests: ['test/add.test.ts'],
  killedBy,
});

test('TAP: the names of failing tests, nested or not, without directives', () => {
  assert.deepEqual(failingTests('ok 1 - fine\nnot ok 2 - broken # TODO later\n    not ok 1 - inner one\n'), ['broken', 'inner one']);
});

test('a mutant is killed when every named test fails on the edited copy; the original is untouched', async () => {
  const api = await adderApi();
  const killed = await runApiMutant(api, join(dir, 'test', 'mutants.yaml'), mutant(['adds']));
  assert.equal(killed.killed, true);
  assert.deepEqual(killed.failing, ['adds']);
  // 'adds zero' passes with a - b: a mutant that names it survives.
  const survived = await runApiMutant(api, join(dir, 'test', 'mutants.yaml'), mutant(['adds', 'adds zero']));
  assert.equal(survived.killed, false);
  assert.deepEqual(survived.missed, ['adds zero']);
  const { add } = (await import(join(dir, 'dataset', 'add.js'))) as { add: (a: number, b: number) => number };
  assert.equal(add(2, 3), 5);
});

test('an edit that does not match exactly once is an error, not a survivor', async () => {
  const api = await adderApi();
  await assert.rejects(runApiMutant(api, 'x', { ...mutant(['adds']), replace: 'a * b' }), /occurs 0 times/);
});
