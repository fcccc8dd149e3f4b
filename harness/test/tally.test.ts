// make test's counts (tally.ts): each check's lines summed, across lanes, and nothing outside make test.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { readTally, tally, TEST_RUN_ENV } from '../src/tally.ts';

const run = promisify(execFile);

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

test("make test's summary ends with a failed lane's last lines (CI keeps the end of the output)", async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'tally-'));
  const log = path.join(dir, 'checks-mutants-aspnet.log');
  const lines = Array.from({ length: 40 }, (_, i) => `line ${i}`);
  await writeFile(
    log,
    [...lines, '  SURVIVED apis/forum/conformance/mutants/aspnet/response-cache (0 failing cases)', 'mutants: 17 passed, 1 failed', ''].join('\n'),
  );
  const outcomes = [
    { name: 'mutants-aspnet', exitCode: 1, seconds: 216, logFile: log },
    { name: 'mutants-hapi', exitCode: 0, seconds: 65, logFile: path.join(dir, 'absent.log') },
  ];
  await writeFile(path.join(dir, 'lanes.json'), JSON.stringify(outcomes));
  await writeFile(path.join(dir, 'phases.tsv'), 'checks\t0\t1680\t1\n');
  const summary = fileURLToPath(new URL('../src/cli/test-summary.ts', import.meta.url));
  const { stdout } = await run(process.execPath, [summary, dir, '1']);
  assert.match(stdout, /lane mutants-aspnet failed \(exit 1\)/);
  assert.match(stdout, /\| +SURVIVED apis\/forum\/conformance\/mutants\/aspnet\/response-cache/);
  assert.doesNotMatch(stdout, /line 20\b/, 'only the last 20 lines');
  assert.doesNotMatch(stdout, /lane mutants-hapi failed/);
});
