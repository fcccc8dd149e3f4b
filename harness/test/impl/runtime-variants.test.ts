// Runtimes as an axis: impl.yaml `variants`, IMPL=<name>@<variant>, and the runtime
// actually run (its version read from the binary the variant's PATH finds).
import assert from 'node:assert/strict';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { checkImplNames, UsageError } from '../../src/cli/usage.ts';
import { imageUnavailable } from '../../src/impl/container.ts';
import { loadImplementation, type Implementation, type ImplManifest } from '../../src/impl/manifest.ts';
import { missingToolchain } from '../../src/impl/toolchain.ts';
import { resolveVariant, splitImplRef, UnknownVariantError, variantPath, variantRefs } from '../../src/impl/variants.ts';
import { runtimeVersion } from '../../src/runtime-version.ts';
import manifestSchema from '../../schemas/impl-manifest.schema.json' with { type: 'json' };

const fixture: ImplManifest = {
  name: 'fx',
  language: 'Java',
  framework: { name: 'F', version: '1' },
  runtime: { name: 'java', version: '17', variant: 'jdk17' },
  variants: {
    jdk21: { runtime: { name: 'java', version: '21' }, path: ['.cache/jdk21/bin'], start: 'java -jar app.jar', containers: { unsupported: 'no JDK 21 image' } },
    bun: { runtime: { name: 'bun', version: '1' }, toolchain: ['bun'], start: 'bun app.js', containers: { unsupported: 'no image' } },
  },
  apis: ['forum'],
  toolchain: ['java', 'mvn'],
  start: 'java -Xshare:auto -jar app.jar',
  dockerfile: 'Dockerfile',
  tuning: 'none',
};

test('IMPL=<name>@<variant> splits at the mark; a plain name has no variant', () => {
  assert.deepEqual(splitImplRef('express@bun'), { folder: 'express', variant: 'bun' });
  assert.deepEqual(splitImplRef('express'), { folder: 'express' });
});

test('the default variant is the manifest as written, under the folder name, by either name', () => {
  for (const v of [undefined, 'jdk17']) {
    const { manifest, resolved } = resolveVariant(fixture, v, '/repo');
    assert.equal(manifest, fixture);
    assert.deepEqual(resolved, { name: 'jdk17', isDefault: true, folder: 'fx', path: [] });
  }
  assert.deepEqual(variantRefs(fixture), ['fx', 'fx@jdk17', 'fx@jdk21', 'fx@bun']);
});

test('a variant runs by its own label, runtime, start, toolchain and PATH directories; the rest is the manifest', () => {
  const { manifest, resolved } = resolveVariant(fixture, 'jdk21', '/repo');
  assert.equal(manifest.name, 'fx@jdk21');
  assert.deepEqual(manifest.runtime, { name: 'java', version: '21' });
  assert.equal(manifest.start, 'java -jar app.jar');
  assert.deepEqual(manifest.toolchain, ['java', 'mvn'], 'no toolchain of its own: the manifest’s');
  assert.equal(manifest.build, fixture.build);
  assert.deepEqual(manifest.apis, ['forum']);
  assert.deepEqual(resolved, { name: 'jdk21', isDefault: false, folder: 'fx', path: ['/repo/.cache/jdk21/bin'], containersUnsupported: 'no JDK 21 image' });
  assert.deepEqual(resolveVariant(fixture, 'bun', '/repo').manifest.toolchain, ['bun']);
  assert.equal(variantPath(resolved, '/usr/bin:/bin'), '/repo/.cache/jdk21/bin:/usr/bin:/bin');
  assert.throws(
    () => resolveVariant(fixture, 'graalvm', '/repo'),
    (e: unknown) => e instanceof UnknownVariantError && /no runtime variant 'graalvm' \(variants: jdk17, jdk21, bun\)/.test(String(e)),
  );
});

test('the schema requires a variant to say how the containers runtime treats it', () => {
  const validate = new Ajv2020({ allErrors: true }).compile(manifestSchema);
  assert.ok(validate(fixture), JSON.stringify(validate.errors));
  const { containers: _dropped, ...withoutContainers } = fixture.variants!['jdk21']!;
  assert.equal(validate({ ...fixture, variants: { jdk21: withoutContainers } }), false);
  assert.equal(validate({ ...fixture, variants: { 'JDK 21': fixture.variants!['jdk21'] } }), false, 'a variant name is a word IMPL can carry');
});

test('the repository’s variants load: express@bun on Bun, spring@jdk21 on the JDK 21 make setup installs', async () => {
  const bun = await loadImplementation('express@bun');
  assert.equal(bun.manifest.name, 'express@bun');
  assert.equal(bun.manifest.runtime.name, 'bun');
  assert.match(bun.manifest.start, /^bun /);
  assert.equal(bun.dir, (await loadImplementation('express')).dir, 'the same folder and tree');
  const node = await loadImplementation('express@node');
  assert.equal(node.manifest.name, 'express', 'the default named explicitly is the default: one verdict');
  const jdk21 = await loadImplementation('spring@jdk21');
  assert.equal(jdk21.manifest.runtime.version, '21');
  assert.ok(jdk21.variant.path.some((p) => p.endsWith('/.cache/jdk21/bin')));
});

test('IMPL accepts declared variants and names them when it does not', async () => {
  await checkImplNames(['express@bun', 'express', 'spring@jdk21', 'spring@jdk17']);
  await assert.rejects(
    checkImplNames(['express@deno']),
    (e: unknown) => e instanceof UsageError && /IMPL must be one of express@node, express@bun, got 'express@deno'/.test(String(e)),
  );
  await assert.rejects(checkImplNames(['nope@bun']), (e: unknown) => e instanceof UsageError && /got 'nope@bun'/.test(String(e)));
});

test('the containers runtime refuses a variant with its reason, never the default image in its place', async () => {
  const reason = imageUnavailable(await loadImplementation('spring@jdk21'));
  assert.match(reason ?? '', /does not run the jdk21 variant of spring: .*no JDK 21 image.*RUNTIME=local/);
});

test('the runtime version and toolchain are the binary the variant’s PATH finds, not the first on the harness’s PATH', async () => {
  const dir = await mkdtemp(join(os.tmpdir(), 'fairbench-variant-'));
  try {
    // A stand-in `java` that reports like the JVM (on stderr).
    await writeFile(join(dir, 'java'), '#!/bin/sh\necho \'openjdk version "99.0.1" 2099-01-01\' >&2\n');
    await chmod(join(dir, 'java'), 0o755);
    const base = await loadImplementation('spring@jdk21');
    const impl: Implementation = { ...base, manifest: { ...base.manifest, toolchain: ['java'] }, variant: { ...base.variant, path: [dir] } };
    assert.equal(await runtimeVersion(impl), 'openjdk version "99.0.1" 2099-01-01');
    assert.equal(await missingToolchain(impl), null);
    const missing: Implementation = { ...impl, manifest: { ...impl.manifest, toolchain: ['no-such-runtime-xyz'] } };
    assert.match((await missingToolchain(missing)) ?? '', new RegExp(`no-such-runtime-xyz \\(nor in ${dir}: run make setup\\)`));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
