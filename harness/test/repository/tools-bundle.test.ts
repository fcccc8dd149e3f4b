// The tools bundle (scripts/tools-bundle.sh): `make bundle` packs a .cache, `make setup
// TOOLS_BUNDLE=` takes what it lacks from one. A small fake .cache makes the round trip; a
// corrupt, an unlisted or a missing file, and a member the bundle lacks, each end set-up with one line.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { appendFile, cp, mkdir, mkdtemp, readFile, readdir, rm, symlink, unlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { promisify } from 'node:util';
import { repoRoot } from '../../src/paths.ts';

const SCRIPT = join(repoRoot, 'scripts', 'tools-bundle.sh');
const run = promisify(execFile);

let dir: string;
let cache: string;
let bundle: string;

/** The script's exit code and its standard error. */
async function tools(...args: string[]): Promise<{ code: number; stderr: string }> {
  try {
    const { stderr } = await run('bash', [SCRIPT, ...args]);
    return { code: 0, stderr };
  } catch (err) {
    const e = err as { code: number; stderr: string };
    return { code: e.code, stderr: e.stderr };
  }
}

/** A copy of the bundle to break. */
async function copyOfBundle(name: string): Promise<string> {
  const copy = join(dir, name);
  await cp(bundle, copy, { recursive: true });
  return copy;
}

before(async () => {
  dir = await mkdtemp(join(os.tmpdir(), 'fairbench-bundle-'));
  cache = join(dir, 'cache');
  bundle = join(dir, 'bundle');
  // A .cache as set-up leaves it: versioned binaries behind symlinks, a superseded build, the Maven repository, kept wheels.
  await mkdir(join(cache, 'bin'), { recursive: true });
  for (const [file, link] of [
    ['ferretdb-v1.24.0-abc', 'ferretdb'],
    ['go-tpc-v1.0.12', 'go-tpc'],
    ['mongo-native-0123', 'mongo-native'],
  ] as const) {
    await writeFile(join(cache, 'bin', file), `#!/bin/sh\necho ${file}\n`, { mode: 0o755 });
    await symlink(file, join(cache, 'bin', link));
  }
  await writeFile(join(cache, 'bin', 'ferretdb-v1.23.0-old'), 'superseded', { mode: 0o755 });
  for (const tool of ['k6', 'actionlint']) await writeFile(join(cache, 'bin', tool), `#!/bin/sh\necho ${tool}\n`, { mode: 0o755 });
  await mkdir(join(cache, 'm2', 'org', 'example', 'lib', '1.0'), { recursive: true });
  await writeFile(join(cache, 'm2', 'org', 'example', 'lib', '1.0', 'lib-1.0.jar'), 'jar bytes');
  await mkdir(join(cache, 'stamps'), { recursive: true });
  await writeFile(join(cache, 'stamps', 'spring-m2'), 'd00d9324c703a5f8\n');
  await mkdir(join(cache, 'wheels'), { recursive: true });
  await writeFile(join(cache, 'wheels', 'fake-1.0-py3-none-any.whl'), 'wheel bytes');
  const made = await tools('make', cache, bundle);
  assert.equal(made.code, 0, made.stderr);
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

test('make bundle packs the current binaries, the Maven repository and the wheels, each listed in SHA256SUMS', async () => {
  assert.deepEqual((await readdir(bundle)).sort(), ['README.md', 'SHA256SUMS', 'bin.tar.zst', 'm2.tar.zst', 'wheels']);
  const sums = (await readFile(join(bundle, 'SHA256SUMS'), 'utf8'))
    .trim()
    .split('\n')
    .map((l) => l.split(/\s+\*?/)[1]);
  assert.deepEqual(sums, ['bin.tar.zst', 'm2.tar.zst', 'wheels/fake-1.0-py3-none-any.whl']);
  const readme = await readFile(join(bundle, 'README.md'), 'utf8');
  for (const member of ['bin/ferretdb-v1.24.0-abc', 'bin/k6', 'bin/mongo-native-0123', 'stamps/spring-m2']) assert.match(readme, new RegExp(member));
  assert.doesNotMatch(readme, /ferretdb-v1\.23\.0-old/, 'a superseded build is not packed');
});

test('setup takes a binary, the Maven repository with its stamp and the wheels out of it, as they were packed', async () => {
  const dest = join(dir, 'taken');
  for (const member of ['bin/k6', 'bin/ferretdb-v1.24.0-abc', 'm2', 'wheels']) {
    const taken = await tools('take', bundle, dest, member);
    assert.equal(taken.code, 0, taken.stderr);
  }
  assert.equal(await readFile(join(dest, 'bin', 'k6'), 'utf8'), '#!/bin/sh\necho k6\n');
  assert.equal(await readFile(join(dest, 'bin', 'ferretdb-v1.24.0-abc'), 'utf8'), '#!/bin/sh\necho ferretdb-v1.24.0-abc\n');
  assert.deepEqual((await readdir(join(dest, 'bin'))).sort(), ['ferretdb-v1.24.0-abc', 'k6'], 'only the members asked for');
  assert.equal(await readFile(join(dest, 'm2', 'org', 'example', 'lib', '1.0', 'lib-1.0.jar'), 'utf8'), 'jar bytes');
  assert.equal(await readFile(join(dest, 'stamps', 'spring-m2'), 'utf8'), 'd00d9324c703a5f8\n');
  assert.equal(await readFile(join(dest, 'wheels', 'fake-1.0-py3-none-any.whl'), 'utf8'), 'wheel bytes');
});

/** A refusal: a failure whose standard error is one line saying `pattern`. */
function assertRefused(outcome: { code: number; stderr: string }, pattern: RegExp): void {
  assert.notEqual(outcome.code, 0, 'refused');
  const lines = outcome.stderr.trim().split('\n');
  assert.equal(lines.length, 1, `one line: ${outcome.stderr}`);
  assert.match(lines[0]!, pattern);
}

test('a corrupt file is refused, whichever member is asked for', async () => {
  const broken = await copyOfBundle('corrupt');
  await appendFile(join(broken, 'wheels', 'fake-1.0-py3-none-any.whl'), 'tampered');
  assertRefused(
    await tools('take', broken, join(dir, 'x1'), 'bin/k6'),
    /wheels\/fake-1\.0-py3-none-any\.whl does not match SHA256SUMS \(corrupt or changed\): refused/,
  );
});

test('a file SHA256SUMS does not list is refused', async () => {
  const broken = await copyOfBundle('unlisted');
  await writeFile(join(broken, 'wheels', 'extra-2.0-py3-none-any.whl'), 'smuggled');
  assertRefused(await tools('take', broken, join(dir, 'x2'), 'wheels'), /wheels\/extra-2\.0-py3-none-any\.whl is not listed in SHA256SUMS: refused/);
});

test('a listed file that is missing is reported', async () => {
  const broken = await copyOfBundle('missing');
  await unlink(join(broken, 'm2.tar.zst'));
  assertRefused(await tools('take', broken, join(dir, 'x3'), 'bin/k6'), /m2\.tar\.zst is listed in SHA256SUMS but missing/);
});

test('a member the bundle lacks (an input changed since it was made) is named, with what is needed', async () => {
  assertRefused(
    await tools('take', bundle, join(dir, 'x4'), 'bin/mongo-native-fffff'),
    /has no bin\/mongo-native-fffff: a new bundle is needed \(make bundle on a machine that reaches the Go module proxy\)/,
  );
});

test('a folder without SHA256SUMS is not a bundle', async () => {
  const empty = join(dir, 'not-a-bundle');
  await mkdir(empty);
  assertRefused(await tools('take', empty, join(dir, 'x5'), 'bin/k6'), /no SHA256SUMS: not a tools bundle/);
});
