// The gate's decision on verdict files: passed and current → reuse, any hash stale →
// rerun, none → rerun, failed or skipped → refuse (with the failing cases named). And where
// the suites it runs take place: where the benchmark runs, not the suites' automatic choice.
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { loadImplementation } from '@fairbench/harness/impl/manifest.ts';
import { checkPairs } from '@fairbench/harness/cli/usage.ts';
import { autoRuntime } from '@fairbench/harness/provision/index.ts';
import { runtimeOf } from '@fairbench/conformance/run.ts';
import { currentHashes, decide, readVerdict } from '../../src/execute/gate.ts';

const dir = await mkdtemp(join(os.tmpdir(), 'fairbench-gate-test-'));
after(() => rm(dir, { recursive: true, force: true }));

const current = await currentHashes(await loadImplementation('express'));
const other = `sha256:${'0'.repeat(64)}`;

async function verdictOnDisk(fields: Record<string, unknown>) {
  const file = join(dir, `${Math.random().toString(36).slice(2)}.json`);
  await writeFile(
    file,
    JSON.stringify({
      schemaVersion: 1,
      implementation: 'express',
      api: 'forum',
      status: 'passed',
      passed: 122,
      failed: 0,
      total: 122,
      failing: [],
      ...current,
      recordedAt: '2026-01-01T00:00:00.000Z',
      ...fields,
    }),
  );
  return readVerdict(file);
}

test('a passing verdict for the current tree, spec and suite is reused', async () => {
  assert.equal(decide(await verdictOnDisk({}), current).action, 'reuse');
});

test('a verdict with any stale hash makes the suite run again, saying what changed', async () => {
  for (const key of ['implTreeHash', 'specHash', 'suiteHash'] as const) {
    const d = decide(await verdictOnDisk({ [key]: other }), current);
    assert.equal(d.action, 'rerun', key);
    assert.match(d.action === 'rerun' ? d.reason : '', /stale/);
  }
  // Stale beats failed: a fixed implementation gets its new verdict, not the old refusal.
  assert.equal(decide(await verdictOnDisk({ status: 'failed', implTreeHash: other }), current).action, 'rerun');
});

test('no verdict on disk: run the suite', async () => {
  assert.equal(await readVerdict(join(dir, 'missing.json')), undefined);
  assert.equal(decide(undefined, current).action, 'rerun');
});

test('a failing pair is refused with the reason', async () => {
  const failed = decide(await verdictOnDisk({ status: 'failed', passed: 120, failed: 2, failing: ['questions/a', 'questions/b'] }), current);
  assert.equal(failed.action, 'refuse');
  assert.match(failed.action === 'refuse' ? failed.reason : '', /2 of 122 cases failed: questions\/a, questions\/b/);
});

test('a skipped or errored pair is run again once (the machine may have changed), then refused', async () => {
  for (const status of ['skipped', 'error'] as const) {
    const recorded = await verdictOnDisk({ status, reason: 'toolchain not found on PATH: dotnet' });
    const before = decide(recorded, current);
    assert.equal(before.action, 'rerun', status);
    assert.match(before.action === 'rerun' ? before.reason : '', /could not test it.*dotnet/);
    const after = decide(recorded, current, true);
    assert.equal(after.action, 'refuse', status);
    assert.match(after.action === 'refuse' ? after.reason : '', /dotnet/);
  }
});

test("the gate's runs take the benchmark's runtime: local unless FAIRBENCH_RUNTIME says otherwise", (t) => {
  const saved = process.env['FAIRBENCH_RUNTIME'];
  t.after(() => {
    if (saved === undefined) delete process.env['FAIRBENCH_RUNTIME'];
    else process.env['FAIRBENCH_RUNTIME'] = saved;
  });
  delete process.env['FAIRBENCH_RUNTIME'];
  const gate = runtimeOf({ impls: ['express'], apis: ['forum'], runtime: 'local' }, { quiet: true });
  assert.equal(gate.provider.name, 'local');
  assert.match(gate.reason, /default for this command/);
  // make conformance and make pact on their own keep the automatic choice.
  assert.equal(runtimeOf({}, { quiet: true }).provider.name, autoRuntime());
  process.env['FAIRBENCH_RUNTIME'] = 'containers';
  assert.equal(runtimeOf({ runtime: 'local' }, { quiet: true }).provider.name, 'containers');
});

test('no API left to verify (a consumer test failed) is no usage error', async () => {
  await checkPairs(['express'], []);
});
