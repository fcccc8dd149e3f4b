// make test's counts (tally.ts): each check's lines summed, across lanes, and nothing outside make test.
import assert from 'node:assert/strict';
import { mkdtemp, readdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { readTally, tally, TEST_RUN_ENV } from '../src/tally.ts';

test("a check's counts from several lanes are summed, per check", async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'tally-'));
  const env = { [TEST_RUN_ENV]: dir };
  tally('mutants', { killed: 18, survived: 0 }, env);
  tally('conformance', { pairs: 5, cases: 640 }, env);
  tally('mutants', { killed: 14, survived: 1 }, env);
  const sums = await readTally(dir);
  assert.deepEqual([...sums.keys()], ['mutants', 'conformance']);
  assert.deepEqual(sums.get('mutants'), { killed: 32, survived: 1 });
  assert.deepEqual(sums.get('conformance'), { pairs: 5, cases: 640 });
});

test('a command run alone (no make test folder) writes nothing', async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'tally-'));
  tally('fuzz', { targets: 7 }, {});
  tally('fuzz', { targets: 7 }, { [TEST_RUN_ENV]: '' });
  assert.deepEqual(await readdir(dir), []);
  assert.equal((await readTally(dir)).size, 0);
});
