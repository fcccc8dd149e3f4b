// make resilience's data and its pure parts: the scenario file and every API's requests
// validate, planted defects name scenarios that exist, the stall verdict on made-up
// attempts, and a stall really stops a process group and a resume restarts it.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { loadApis } from '@fairbench/harness/api/manifest.ts';
import { resultsDir } from '@fairbench/harness/paths.ts';
import { startProcess } from '@fairbench/harness/process.ts';
import { descendants, stallServer } from '@fairbench/harness/provision/local/fault.ts';
import type { LocalDatabaseServer } from '@fairbench/harness/provision/local/index.ts';
import type { Attempt } from '../src/resilience/client.ts';
import { isUnavailableProblem } from '../src/resilience/client.ts';
import { loadApiResilience, loadScenarios } from '../src/resilience/files.ts';
import { judgeStall } from '../src/resilience/scenarios/stall.ts';
import { loadMutants } from '../src/mutants.ts';

test('the scenario file and its short form load; the short stall outlasts 4.5 s bounds plus slack', async () => {
  const full = await loadScenarios(false);
  const short = await loadScenarios(true);
  assert.ok(short.every((s) => full.some((f) => f.id === s.id)) && short.length > 0);
  for (const s of short.filter((s) => s.kind === 'stall')) assert.ok((s.stall ?? 0) * 1000 > 4500 + 1000, `${s.id}: stall ${s.stall} s`);
});

test("every API's resilience requests validate, and its planted defects name existing scenarios", async () => {
  const ids = new Set((await loadScenarios(false)).map((s) => s.id));
  for (const api of await loadApis()) {
    const requests = await loadApiResilience(api.dir);
    // An API without requests is skipped by make resilience with a loud line (and a skipped
    // verdict); said here too, so that it is seen and not mistaken for a pass.
    if (requests === undefined)
      console.log(`!! apis/${api.manifest.name}/resilience/requests.yaml does not exist: make resilience skips ${api.manifest.name} (not tested)`);
    for (const impl of ['express', 'hapi', 'elysia']) {
      const file = join(api.dir, 'resilience', 'mutants', `${impl}.yaml`);
      if (
        !(await readFile(file).then(
          () => true,
          () => false,
        ))
      )
        continue;
      for (const m of (await loadMutants(file)).mutants) for (const id of m.killedBy) assert.ok(ids.has(id), `${file}: ${m.id} names ${id}`);
    }
  }
});

const ref: Attempt = { start: 0, end: 5, status: 200, mediaType: 'application/json', body: '{"a":1}' };
const ok = (start: number, ms = 5): Attempt => ({ ...ref, start, end: start + ms });
const unavailable = (start: number, ms: number): Attempt => ({
  start,
  end: start + ms,
  status: 503,
  mediaType: 'application/problem+json',
  body: '{"type":"urn:fairbench:problem:unavailable","title":"Service unavailable","status":503}',
});
const times = { stalledAt: 1000, resumedAt: 9000, boundMs: 3000, limitMs: 4000, recoverWithinMs: 5000 };

test('stall verdict: 503 problems within the bound and a quick recovery pass', () => {
  const attempts = [ok(0), ok(500), unavailable(1000, 2000), unavailable(5000, 2000), ok(9100), ok(9200)];
  const r = judgeStall(attempts, ref, times);
  assert.equal(r.passed, true, r.failures.join('; '));
  assert.equal(r.figures['recoveryMs'], 105);
  assert.deepEqual(r.figures['statusesDuringStall'], { '503': 2 });
});

test('stall verdict: a hang past the bound, a 500, a late or missing recovery each fail', () => {
  const hang = judgeStall([ok(0), ok(1000, 8000), ok(9100)], ref, times);
  assert.match(hang.failures.join(), /longer than the stated bound/);
  const fiveHundred = judgeStall([ok(0), { ...unavailable(1000, 100), status: 500 }, ok(9100)], ref, times);
  assert.match(fiveHundred.failures.join(), /neither the reference answer nor a 503/);
  const late = judgeStall([ok(0), unavailable(9100, 100), unavailable(13000, 1000), ok(14500)], ref, times);
  assert.match(late.failures.join(), /came back 5505 ms after the resume/);
  const never = judgeStall([ok(0), unavailable(9100, 100)], ref, times);
  assert.match(never.failures.join(), /no correct answer after the resume/);
});

test('a 503 counts as unavailable only as application/problem+json whose status agrees', () => {
  assert.equal(isUnavailableProblem(unavailable(0, 1)), true);
  assert.equal(isUnavailableProblem({ ...unavailable(0, 1), mediaType: 'text/html' }), false);
  assert.equal(isUnavailableProblem({ ...unavailable(0, 1), body: '{"status":500}' }), false);
});

const state = async (pid: number) => (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1]!.split(' ')[0];

test('a stall stops the whole process group (SIGSTOP) and the resume continues it', async () => {
  const proc = startProcess({ name: 'stall-me', command: 'sh', args: ['-c', 'sleep 30 & wait'], logFile: join(resultsDir, 'test-resilience', 'stall.log') });
  try {
    const server = { provider: 'local', process: proc } as unknown as LocalDatabaseServer;
    await new Promise((r) => setTimeout(r, 100));
    const stall = stallServer(server);
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(await state(proc.pid), 'T');
    stall.resume();
    await new Promise((r) => setTimeout(r, 100));
    assert.notEqual(await state(proc.pid), 'T');
  } finally {
    await proc.stop();
  }
});

test('a stall also stops the descendants that left the group (PostgreSQL setsids its backends), and the resume continues them', async () => {
  const proc = startProcess({
    name: 'stall-me',
    command: 'sh',
    args: ['-c', 'setsid sleep 30 & wait'],
    logFile: join(resultsDir, 'test-resilience', 'stall-setsid.log'),
  });
  try {
    const server = { provider: 'local', process: proc } as unknown as LocalDatabaseServer;
    await new Promise((r) => setTimeout(r, 200));
    const [child] = descendants(proc.pid);
    assert.ok(child !== undefined, 'the sleep runs under the shell');
    const stall = stallServer(server);
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(await state(child), 'T');
    stall.resume();
    await new Promise((r) => setTimeout(r, 100));
    assert.notEqual(await state(child), 'T');
  } finally {
    await proc.stop();
  }
});
