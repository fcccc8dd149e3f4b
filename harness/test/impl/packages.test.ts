// Framework versions as an axis: IMPL=<name>~<version> (harness/src/impl/packages.ts) is the
// implementation with its framework package pinned at that version by its own package manager,
// in a copy named by its label. The pin is real: npm resolves it from the registry.
import assert from 'node:assert/strict';
import { readFile, stat } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { checkImplNames, UsageError } from '../../src/cli/usage.ts';
import { implTreeHash } from '../../src/fingerprint.ts';
import { implRoot, loadImplementation } from '../../src/impl/manifest.ts';
import { splitPackage, UnknownPackageError } from '../../src/impl/packages.ts';
import { cacheDir } from '../../src/paths.ts';

// An older release than the one impl/express pins (impl.yaml framework.version).
const OLDER = '5.2.1';

test('IMPL=<name>~<version> splits at the mark, after any variant; a ~ after a revision is the revision', () => {
  assert.deepEqual(splitPackage('express~5.2.1'), { base: 'express', version: '5.2.1' });
  assert.deepEqual(splitPackage('express@bun~5.2.1'), { base: 'express@bun', version: '5.2.1' });
  assert.deepEqual(splitPackage('express:HEAD~2'), { base: 'express:HEAD~2' });
  assert.deepEqual(splitPackage('express'), { base: 'express' });
});

test('refused as usage errors: a framework that is no package, a version that is not one exact version, a pin in a planted cheat', async () => {
  await assert.rejects(checkImplNames(['aspnet~10.0.1']), (e: unknown) => e instanceof UsageError && /names no framework package/.test(e.message));
  for (const version of ['latest', '^5.2.1', '5.2', '5.2.1 || 4'])
    await assert.rejects(checkImplNames([`express~${version}`]), (e: unknown) => e instanceof UsageError && /not one exact version/.test(e.message), version);
  await assert.rejects(checkImplNames(['express+answer-cache~5.2.1']), UsageError);
  await assert.rejects(loadImplementation('aspnet~10.0.1'), UnknownPackageError);
  await checkImplNames([`express~${OLDER}`, 'express:HEAD~1']);
});

test('express~<older> is a copy with the package and its lock file pinned at that version, its own label and framework version; the original untouched', async () => {
  const original = await loadImplementation('express');
  const lockBefore = await readFile(join(implRoot, 'express', 'package-lock.json'), 'utf8');
  const impl = await loadImplementation(`express~${OLDER}`);
  assert.equal(impl.manifest.name, `express~${OLDER}`);
  assert.deepEqual(impl.manifest.framework, { ...original.manifest.framework, version: OLDER });
  assert.deepEqual(impl.package, { name: 'express', version: OLDER });
  assert.equal(relative(cacheDir, impl.dir).split('/')[0], 'packages');
  assert.equal(impl.variant.folder, 'express');
  const pkg = JSON.parse(await readFile(join(impl.dir, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
  assert.equal(pkg.dependencies['express'], OLDER, 'pinned exactly in package.json');
  const lock = JSON.parse(await readFile(join(impl.dir, 'package-lock.json'), 'utf8')) as { packages: Record<string, { version?: string }> };
  assert.equal(lock.packages['node_modules/express']?.version, OLDER, 'and in the lock file the build installs from');
  assert.notEqual(original.manifest.framework.version, OLDER);
  assert.equal(await readFile(join(implRoot, 'express', 'package-lock.json'), 'utf8'), lockBefore, 'impl/express is untouched');
  // Keyed to its source and version: a second load reuses the copy, and its verdicts differ from the original's.
  const made = (await stat(join(impl.dir, 'package-lock.json'))).mtimeMs;
  const again = await loadImplementation(`express~${OLDER}`);
  assert.equal(again.dir, impl.dir);
  assert.equal((await stat(join(again.dir, 'package-lock.json'))).mtimeMs, made);
  assert.notEqual(await implTreeHash(impl.dir), await implTreeHash(original.dir));
});
