// The implementations' copies of each other's code (harness/impl-copies.yaml) agree: a copy
// edited without the others fails here, with a diff naming both files.
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { describeDrift, drifts, missingParts, readCopyGroups, type CopyGroup } from '../../src/impl/copies.ts';

const groups = await readCopyGroups();

test('impl-copies.yaml names only files and declarations that exist, each group once', async () => {
  const missing = (await Promise.all(groups.map((group) => missingParts(group)))).flat();
  assert.deepEqual(missing, [], `harness/impl-copies.yaml names what is not there:\n${missing.join('\n')}`);
  assert.equal(new Set(groups.map((g) => g.name)).size, groups.length, 'group names are unique');
});

for (const group of groups) {
  test(`the copies agree: ${group.name}`, async () => {
    const found = await drifts(group);
    if (found.length > 0)
      assert.fail(`copies drifted apart (make them agree, or change harness/impl-copies.yaml):\n\n${found.map(describeDrift).join('\n\n')}`);
  });
}

// The checker itself, on scratch copies: what it must notice, and what it must not.
async function scratch(files: Record<string, string>): Promise<string> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'impl-copies-'));
  for (const [file, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(root, file)), { recursive: true });
    await writeFile(path.join(root, file), text);
  }
  return root;
}

test('a byte-for-byte group notices one changed character, and names both files and the line', async () => {
  const group: CopyGroup = { name: 'monitor', why: 'test', files: ['impl/a/m.js', 'impl/b/m.js'] };
  const root = await scratch({ 'impl/a/m.js': 'const a = 1;\nconst b = 2;\n', 'impl/b/m.js': 'const a = 1;\nconst b = 3;\n' });
  const [drift, ...more] = await drifts(group, root);
  assert.equal(more.length, 0);
  const text = describeDrift(drift!);
  assert.match(text, /monitor: the whole file of impl\/b\/m\.js differs from impl\/a\/m\.js/);
  assert.match(text, /^- const b = 2;$/m);
  assert.match(text, /^\+ const b = 3;$/m);
});

test('a declarations group ignores comments, layout, types and the rest of the file, not a change of code', async () => {
  const group: CopyGroup = { name: 'timeouts', why: 'test', files: ['impl/a/t.js', 'impl/b/t.ts'], declarations: ['TIMEOUT_MS', 'bounded'] };
  const js = '// a\nexport const TIMEOUT_MS = 2_000;\nexport function bounded(ms) {\n  return Math.min(ms, TIMEOUT_MS);\n}\nexport const framework = 1;\n';
  const ts =
    '/** b */\nexport const TIMEOUT_MS = 2_000;\n\nexport function bounded(ms: number): number {\n  // why\n  return Math.min(ms,  TIMEOUT_MS);\n}\nexport const framework = 2;\n';
  assert.deepEqual(await drifts(group, await scratch({ 'impl/a/t.js': js, 'impl/b/t.ts': ts })), []);

  const changed = await drifts(group, await scratch({ 'impl/a/t.js': js, 'impl/b/t.ts': ts.replace('Math.min', 'Math.max') }));
  assert.deepEqual(
    changed.map((d) => [d.copy, d.part]),
    [['impl/b/t.ts', 'declaration bounded']],
  );
  assert.match(changed[0]!.diff, /^- +return Math\.min\(ms, TIMEOUT_MS\);\n\+ +return Math\.max\(ms, TIMEOUT_MS\);$/m);
});

test('a file or declaration that is gone is named, and drifts as empty', async () => {
  const group: CopyGroup = { name: 'gone', why: 'test', files: ['impl/a/t.js', 'impl/b/t.js', 'impl/c/t.js'], declarations: ['X'] };
  const root = await scratch({ 'impl/a/t.js': 'const X = 1;\n', 'impl/b/t.js': 'const Y = 1;\n' });
  assert.deepEqual(await missingParts(group, root), ['gone: impl/b/t.js has no top-level declaration X', 'gone: impl/c/t.js does not exist']);
  assert.deepEqual(
    (await drifts(group, root)).map((d) => d.copy),
    ['impl/b/t.js', 'impl/c/t.js'],
  );
});
