// Every make target's usage errors, as a user meets them: the CLI spawned as make runs it,
// one line on stderr naming the accepted values, exit code 2, no stack trace. The accepted
// values are read from impl/ and apis/ here too, so adding an implementation or an API
// changes what is expected, not the test. Nothing here starts a database or a server.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import { join } from 'node:path';
import { describe, it, test } from 'node:test';
import { apiNames } from '@fairbench/harness/api/manifest.ts';
import { implNames, UsageError } from '@fairbench/harness/cli/usage.ts';
import { loadImplementations } from '@fairbench/harness/impl/manifest.ts';
import { repoRoot } from '@fairbench/harness/paths.ts';
import { resumeStatus, selectApis } from '../../src/plan/api-selection.ts';

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(script: string, args: readonly string[], env: Record<string, string> = {}): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(repoRoot, script), ...args], {
      cwd: repoRoot,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

const impls = await implNames();
const apis = await apiNames();
const manifests = await loadImplementations();
// An implementation that does not serve every API, and one API it does not serve: where every
// implementation serves every API, there is none, and the refusals of an unserved API go untested.
const partial = manifests.find((i) => apis.some((a) => !i.manifest.apis.includes(a)));
const notServed = partial ? apis.find((a) => !partial.manifest.apis.includes(a)) : undefined;
if (notServed === undefined)
  console.log('\x1b[33m!! SKIPPED the usage errors of an API an implementation does not serve: every implementation under impl/ serves every API\x1b[0m');
const subject = partial ?? manifests[0]!;
const served = subject.manifest.apis.filter((a) => apis.includes(a));
const name = subject.manifest.name;

const BENCH = 'bench/src/cli/bench.ts';
const CONFORMANCE = 'conformance/src/cli/conformance.ts';
const FUZZ = 'conformance/src/cli/fuzz.ts';
const SERVE = 'conformance/src/cli/serve.ts';

/** [what, script, args, env, the values the line must name] */
type Row = [string, string, string[], Record<string, string>, readonly string[]];
/** The refusal of an API the implementation does not serve, where there is such an API. */
const unserved = (script: string): Row[] =>
  notServed === undefined
    ? []
    : [[`${script.split('/')[0]}, an API the implementation does not serve`, script, ['--impl', name, '--api', notServed], {}, served]];
const cases: Row[] = [
  ['bench without IMPL', BENCH, ['--impl', ''], {}, impls],
  ['bench, unknown IMPL', BENCH, ['--impl', 'no-such-impl'], {}, impls],
  ['bench, unknown API', BENCH, ['--impl', name, '--api', 'no-such-api'], {}, apis],
  ...unserved(BENCH),
  ['bench, REPEAT out of range', BENCH, ['--impl', name, '--repeat', '0'], {}, ['≥ 1']],
  ['bench, PIN out of range', BENCH, ['--impl', name, '--pin', '2'], {}, ['0', '1']],
  ['bench, one warm-up iteration (the rule compares two)', BENCH, ['--impl', name, '--warmup-iterations', '1'], {}, ['0', 'at least 2']],
  ['bench, PROFILE unknown', BENCH, ['--impl', name, '--profile', 'fast'], {}, ['quick', 'standard', 'paper']],
  ['bench, QUICK=1 with another PROFILE', BENCH, ['--impl', name, '--quick', '--profile', 'paper'], {}, ['QUICK=1 is PROFILE=quick']],
  ['bench, an unknown option', BENCH, ['--impl', name, '--repeats', '3'], {}, ['--repeat', '--duration']],
  ['bench, RUNTIME unknown', BENCH, ['--impl', name], { FAIRBENCH_RUNTIME: 'vm' }, ['local', 'containers']],
  ['conformance, unknown IMPL', CONFORMANCE, ['--impl', 'no-such-impl'], {}, impls],
  ...unserved(CONFORMANCE),
  ['fuzz, unknown API', FUZZ, ['--api', 'no-such-api'], {}, apis],
  ['serve without IMPL', SERVE, ['--impl', '', '--api', ''], {}, impls],
  ['serve without API', SERVE, ['--impl', name, '--api', ''], {}, served],
  ['report, an unknown option', 'bench/src/cli/report.ts', ['--output', 'x'], {}, ['--results', '--out']],
  ['images, an unknown image', 'harness/src/cli/images.ts', ['no-such-image'], {}, ['node', 'mariadb']],
];

// Each spawn mostly waits on module loading: four at a time.
describe('usage errors', { concurrency: 4 }, () => {
  for (const [what, script, args, env, accepted] of cases) {
    it(`${what} → one line naming ${accepted.join(', ')}, exit code 2`, async () => {
      const ran = await run(script, args, env);
      const lines = ran.stderr.split('\n').filter((l) => l.trim() !== '');
      assert.equal(ran.code, 2, `exit code 2, got ${ran.code}; stderr:\n${ran.stderr}`);
      assert.equal(lines.length, 1, `one line on stderr, got:\n${ran.stderr}`);
      assert.doesNotMatch(ran.stderr, /\n\s+at /, 'no stack trace');
      for (const value of accepted) assert.ok(lines[0]!.includes(value), `the line names '${value}': ${lines[0]}`);
    });
  }
});

test('a bug is not a usage error: its stack trace stays, exit code 1', async () => {
  const main = new URL('../../../harness/src/cli/main.ts', import.meta.url).href;
  const ran = await new Promise<Ran>((resolve) => {
    const child = spawn(
      process.execPath,
      ['--input-type=module', '-e', `import { runMain } from '${main}'; await runMain('x', async () => { throw new TypeError('boom'); });`],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ code, stdout: '', stderr }));
  });
  assert.equal(ran.code, 1);
  assert.match(ran.stderr, /^x: TypeError: boom\n\s+at /);
});

test("without API, the APIs every implementation named serves, in the first one's order", async () => {
  assert.deepEqual((await selectApis([name], undefined)).apis, served);
  const other = manifests.find((i) => i.manifest.name !== name)!;
  const both = other.manifest.apis.filter((a) => apis.includes(a) && subject.manifest.apis.includes(a));
  if (both.length > 0) assert.deepEqual((await selectApis([other.manifest.name, name], undefined)).apis, both);
  else await assert.rejects(selectApis([other.manifest.name, name], undefined), (e: Error) => e instanceof UsageError && /no API in common/.test(e.message));
  assert.deepEqual(await selectApis([name], served.slice(0, 1)), { apis: served.slice(0, 1), explicit: true });
});

test("RESUME of a run of several APIs: each API's part is none, complete or to continue", async () => {
  const dir = await mkdtemp(join(os.tmpdir(), 'fairbench-resume-'));
  try {
    const runId = '2026-01-01T00-00-00Z';
    const put = async (api: string, doc: object) => {
      await mkdir(join(dir, api, 'x'), { recursive: true });
      await writeFile(join(dir, api, 'x', `${runId}.json`), JSON.stringify(doc));
    };
    await put('a', { complete: true });
    await put('b', { complete: false });
    assert.equal(await resumeStatus('a', 'x', runId, dir), 'complete');
    assert.equal(await resumeStatus('b', 'x', runId, dir), 'incomplete');
    assert.equal(await resumeStatus('c', 'x', runId, dir), 'none');
    assert.equal(await resumeStatus('a', 'y', runId, dir), 'none');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
