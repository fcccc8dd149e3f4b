// The workflow's conformance matrix: every folder under impl/ with a manifest gets a job,
// and the workflow takes its matrix from the lister instead of a hard-coded list.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { parse } from 'yaml';
import { repoRoot } from '../src/paths.ts';
import { conformanceMatrix, type Matrix } from '../src/impl/matrix.ts';
import type { Implementation } from '../src/impl/manifest.ts';

const cli = join(repoRoot, 'harness/src/cli/impl-matrix.ts');

test('the lister prints a job for every impl/*/impl.yaml', async () => {
  const { stdout } = await promisify(execFile)(process.execPath, [cli], { cwd: repoRoot });
  assert.equal(stdout.trim().split('\n').length, 1, 'one line, as $GITHUB_OUTPUT needs');
  const matrix = JSON.parse(stdout) as Matrix;
  const listed = matrix.include.map((e) => e.impl).sort();
  // Found independently of the loader: the folders themselves.
  const folders = readdirSync(join(repoRoot, 'impl'), { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(repoRoot, 'impl', d.name, 'impl.yaml')))
    .map((d) => d.name)
    .sort();
  assert.deepEqual(listed, folders);
  for (const name of ['express', 'hapi', 'aspnet']) assert.ok(listed.includes(name), `${name} is in the matrix`);
  // Each job names its manifest's runtime, read here from the file itself.
  const aspnet = parse(readFileSync(join(repoRoot, 'impl', 'aspnet', 'impl.yaml'), 'utf8')) as { runtime: { name: string; version: string } };
  assert.equal(matrix.include.find((e) => e.impl === 'aspnet')?.runtime, `${aspnet.runtime.name} ${aspnet.runtime.version}`);
});

test('an entry carries the manifest runtime and APIs', () => {
  const impl = {
    dir: '/nowhere',
    manifest: { name: 'fixture', runtime: { name: 'bun', version: '1.3' }, apis: ['users', 'documents'] },
  } as unknown as Implementation;
  assert.deepEqual(conformanceMatrix([impl]), { include: [{ impl: 'fixture', runtime: 'bun 1.3', apis: 'users,documents' }] });
});

test('the workflow takes its conformance matrix from the lister', () => {
  const workflow = parse(readFileSync(join(repoRoot, '.github/workflows/conformance.yml'), 'utf8')) as {
    jobs: Record<string, { needs?: string | string[]; strategy?: { matrix?: unknown }; steps?: { run?: string }[] }>;
  };
  const lister = Object.entries(workflow.jobs).find(([, job]) => job.steps?.some((s) => s.run?.includes('harness/src/cli/impl-matrix.ts')));
  assert.ok(lister, 'a job runs harness/src/cli/impl-matrix.ts');
  const matrix = workflow.jobs['conformance']?.strategy?.matrix;
  assert.equal(typeof matrix, 'string', 'the matrix is an expression, not a hard-coded list');
  assert.match(matrix as string, new RegExp(`fromJSON\\(needs\\.${lister[0]}\\.outputs\\.\\w+\\)`));
});
