// The warm copy make mutants builds a compiled implementation's defects from: built once without
// the folder's own build outputs, each defect's edit rebuilt with the edited file named, undone after.
import assert from 'node:assert/strict';
import { mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, test } from 'node:test';
import type { Implementation } from '@fairbench/harness/impl/manifest.ts';
import { resultsDir } from '@fairbench/harness/paths.ts';
import { warmCopy } from '../src/warm-copy.ts';
import { plantAndRun } from '../src/mutants.ts';
import type { Verdict } from '../src/report/verdict.ts';

const dir = join(resultsDir, 'test-warm-copy', 'compiled');
after(() => rm(join(resultsDir, 'test-warm-copy'), { recursive: true, force: true }));

// "Building" counts the builds in builds.txt and copies each source to out/ as the rebuild names it.
async function compiled(): Promise<Implementation> {
  await mkdir(join(dir, 'src', 'obj'), { recursive: true });
  await writeFile(join(dir, '.gitignore'), 'obj/\nout/\n');
  await writeFile(join(dir, 'src', 'app.txt'), 'sort ascending\n');
  await writeFile(join(dir, 'src', 'obj', 'stale.txt'), 'built before\n');
  const manifest = {
    name: 'test-compiled',
    start: 'false',
    defects: {
      build: 'mkdir -p out && echo build >> builds.txt',
      rebuild: 'test -f "$FAIRBENCH_CHANGED" && cp "$FAIRBENCH_CHANGED" out/ && echo rebuild >> builds.txt',
      start: 'cat out/app.txt',
    },
  } as unknown as Implementation['manifest'];
  return { manifest, dir, variant: {} as Implementation['variant'] };
}

test('one build, then per defect its edit rebuilt alone; undone before the next; the build outputs not copied', async () => {
  const copy = (await warmCopy(await compiled(), 'test'))!;
  assert.ok(copy);
  const planted = await copy.plant({ id: 'descending', file: 'src/app.txt', replace: 'ascending', with: 'descending' });
  assert.equal(planted.manifest.build, undefined, 'nothing is left to build at launch');
  assert.equal(planted.manifest.start, 'cat out/app.txt');
  assert.equal(await readFile(join(planted.dir, 'out', 'app.txt'), 'utf8'), 'sort descending\n');
  await assert.rejects(stat(join(planted.dir, 'src', 'obj')), 'a .gitignore folder at any depth is left out');
  await copy.plant({ id: 'unsorted', file: 'src/app.txt', replace: 'sort ', with: '' });
  assert.equal(await readFile(join(planted.dir, 'src', 'app.txt'), 'utf8'), 'ascending\n', 'the first edit was undone before the second');
  await copy.undo();
  assert.equal(await readFile(join(planted.dir, 'src', 'app.txt'), 'utf8'), 'sort ascending\n');
  assert.equal(await readFile(join(planted.dir, 'builds.txt'), 'utf8'), 'build\nrebuild\nrebuild\n');
  assert.equal(await readFile(join(dir, 'src', 'app.txt'), 'utf8'), 'sort ascending\n', 'the implementation itself is untouched');
  await copy.remove();
});

test('an edit that does not match once, or a rebuild that fails, rejects', async () => {
  const copy = (await warmCopy(await compiled(), 'test'))!;
  await assert.rejects(copy.plant({ id: 'absent', file: 'src/app.txt', replace: 'nowhere', with: '' }), /occurs 0 times/);
  const failing = (await warmCopy(
    { ...(await compiled()), manifest: { ...(await compiled()).manifest, defects: { build: 'true', rebuild: 'exit 3', start: 'true' } } },
    'test',
  ))!;
  await assert.rejects(failing.plant({ id: 'x', file: 'src/app.txt', replace: 'sort', with: 'order' }), /exit 3/);
  await failing.undo();
  await copy.remove();
  await failing.remove();
});

test('an implementation without `defects` has no warm copy', async () => {
  const { defects: _none, ...manifest } = (await compiled()).manifest;
  assert.equal(await warmCopy({ ...(await compiled()), manifest }), null);
});

test("a defect's trial that never ran the suite (no build, an errored start) says why, and the defect is taken out either way", async () => {
  const copy = (await warmCopy(await compiled(), 'test'))!;
  const original = await compiled();
  const verdict = (status: Verdict['status'], failing: string[] = [], reason?: string) =>
    ({ status, failing, failed: failing.length, total: 1, ...(reason ? { reason } : {}) }) as unknown as Verdict;
  const unbuildable = await plantAndRun(copy, original, { id: 'absent', why: '', file: 'src/app.txt', replace: 'nowhere', with: '', killedBy: ['a'] }, () =>
    Promise.reject(new Error('the suite must not run')),
  );
  assert.match(unbuildable.error ?? '', /the defect did not build: .*occurs 0 times/);
  const edit = { id: 'descending', why: '', file: 'src/app.txt', replace: 'ascending', with: 'descending', killedBy: ['a'] };
  const unstarted = await plantAndRun(copy, original, edit, async () => verdict('error', [], '/health did not answer 200 within 60 s'));
  assert.equal(unstarted.error, '/health did not answer 200 within 60 s');
  const ran = await plantAndRun(copy, original, edit, async (impl) => {
    assert.equal(await readFile(join(impl.dir, 'out', 'app.txt'), 'utf8'), 'sort descending\n', 'the suite runs on the defect');
    return verdict('failed', ['a']);
  });
  assert.equal(ran.error, undefined);
  assert.deepEqual(ran.verdict.failing, ['a']);
  assert.equal(await readFile(join(resultsDir, 'mutants', 'test-compiled-test', 'src', 'app.txt'), 'utf8'), 'sort ascending\n', 'taken out after');
  await copy.remove();
});
