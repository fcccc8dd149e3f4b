// Revisions as an axis: IMPL=<name>:<revision> (harness/src/impl/revisions.ts) is the
// implementation's folder as it was at that commit, named by its label, name:<commit>.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { parse } from 'yaml';
import { checkImplNames, UsageError } from '../../src/cli/usage.ts';
import { implTreeHash } from '../../src/fingerprint.ts';
import { loadImplementation } from '../../src/impl/manifest.ts';
import { revisionLabel, revisionTreeHash, splitRevision } from '../../src/impl/revisions.ts';
import { cacheDir, repoRoot } from '../../src/paths.ts';

const head = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: repoRoot, encoding: 'utf8' }).trim();

test('IMPL=<name>:<revision> splits at the first mark, after any variant; the label keeps 10 hex digits of the commit', () => {
  assert.deepEqual(splitRevision('express:main'), { base: 'express', revision: 'main' });
  assert.deepEqual(splitRevision('express@bun:HEAD~2'), { base: 'express@bun', revision: 'HEAD~2' });
  assert.deepEqual(splitRevision('express'), { base: 'express' });
  assert.equal(revisionLabel('express', head), `express:${head.slice(0, 10)}`);
});

test('express:HEAD is impl/express as committed: its own label, folder and manifest, the commit it names', async () => {
  const impl = await loadImplementation('express:HEAD');
  assert.equal(impl.manifest.name, `express:${head.slice(0, 10)}`);
  assert.deepEqual(impl.revision, { revision: 'HEAD', commit: head });
  assert.equal(relative(cacheDir, impl.dir), join('revisions', head, 'express'));
  const committed = parse(execFileSync('git', ['show', `${head}:impl/express/impl.yaml`], { cwd: repoRoot, encoding: 'utf8' })) as { start: string };
  assert.equal(impl.manifest.start, committed.start);
  assert.equal(
    await readFile(join(impl.dir, 'package-lock.json'), 'utf8'),
    execFileSync('git', ['show', `${head}:impl/express/package-lock.json`], { cwd: repoRoot, encoding: 'utf8' }),
  );
  assert.equal(impl.variant.folder, 'express');
  // Its verdicts are keyed to the folder's tree at that commit (git does not see .cache/).
  assert.equal(
    await implTreeHash(impl.dir),
    revisionTreeHash(execFileSync('git', ['rev-parse', `${head}:impl/express`], { cwd: repoRoot, encoding: 'utf8' }).trim()),
  );
  assert.equal((await loadImplementation('express')).revision, undefined);
});

test('IMPL names a revision that exists, of an implementation that existed there, with a variant it declared', async () => {
  await checkImplNames(['express:HEAD', `hapi:${head.slice(0, 12)}`]);
  await assert.rejects(checkImplNames(['express:no-such-branch-anywhere']), (e: unknown) => e instanceof UsageError && /names no commit/.test(e.message));
  await assert.rejects(checkImplNames(['nothing:HEAD']), (e: unknown) => e instanceof UsageError && /has no impl\/nothing\/impl.yaml/.test(e.message));
  await assert.rejects(checkImplNames(['express@nope:HEAD']), UsageError);
});
