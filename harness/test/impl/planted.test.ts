// Planted cheats: IMPL=<name>+<cheat> (harness/src/impl/planted.ts) is a copy of the
// implementation with one edit of apis/<api>/cheats/<name>.yaml, an implementation of its own
// that serves the cheat's API alone; impl/<name> itself is left as it was.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { checkImplNames, UsageError } from '../../src/cli/usage.ts';
import { implTreeHash } from '../../src/fingerprint.ts';
import { loadImplementation } from '../../src/impl/manifest.ts';
import { loadCheats, splitPlanted } from '../../src/impl/planted.ts';

test('IMPL=<name>+<cheat> splits at the mark', () => {
  assert.deepEqual(splitPlanted('express+answer-cache'), { base: 'express', cheat: 'answer-cache' });
  assert.deepEqual(splitPlanted('express'), { base: 'express' });
});

test('every declared cheat is planted in a copy: its edit made, the original untouched, the copy its own implementation', async () => {
  const cheats = await loadCheats();
  assert.ok(cheats.length >= 3, `${cheats.length} cheats`);
  for (const cheat of cheats) {
    const ref = `${cheat.implementation}+${cheat.id}`;
    await checkImplNames([ref]);
    const planted = await loadImplementation(ref);
    const original = await loadImplementation(cheat.implementation);
    assert.equal(planted.manifest.name, ref);
    assert.deepEqual(planted.manifest.apis, [cheat.api]);
    assert.deepEqual(planted.planted, { cheat: cheat.id, api: cheat.api });
    assert.notEqual(planted.dir, original.dir);
    const edited = await readFile(join(planted.dir, cheat.file), 'utf8');
    assert.ok(edited.includes(cheat.with) && !edited.includes(cheat.replace), `${ref}: the edit is made`);
    assert.ok((await readFile(join(original.dir, cheat.file), 'utf8')).includes(cheat.replace), `${ref}: impl/${cheat.implementation} keeps its text`);
    assert.match(await implTreeHash(planted.dir), /^sha256:[0-9a-f]{64}$/);
    assert.notEqual(await implTreeHash(planted.dir), await implTreeHash(original.dir));
    assert.equal((await loadImplementation(ref)).dir, planted.dir, 'made once');
  }
});

test('IMPL names a cheat its implementation has, in the working tree only', async () => {
  await assert.rejects(
    checkImplNames(['express+no-such-cheat']),
    (e: unknown) => e instanceof UsageError && /no planted cheat 'no-such-cheat' of express/.test(e.message),
  );
  await assert.rejects(checkImplNames(['express+answer-cache:HEAD']), (e: unknown) => e instanceof UsageError && /not in a revision/.test(e.message));
  await assert.rejects(checkImplNames(['nothing+answer-cache']), UsageError);
});
