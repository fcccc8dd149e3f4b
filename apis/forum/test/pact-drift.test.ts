// The forum pact's consumer test bites: bench/k6.js run against Pact's mock server passes with
// the pact as written, and fails when the script reads a field the pact does not promise,
// sends a request no interaction describes, or when an interaction is never used. One run
// (REST, one comment by id) keeps it to a few seconds; make pact runs them all.
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { loadApi } from '@fairbench/harness/api/manifest.ts';
import { repoRoot } from '@fairbench/harness/paths.ts';
import { withPact, type PactApi } from '@fairbench/pact/apis.ts';
import { runConsumer } from '@fairbench/pact/consumer.ts';

process.env.PACT_DO_NOT_TRACK ??= 'true';
const dir = await mkdtemp(join(os.tmpdir(), 'fairbench-pact-drift-'));
after(() => rm(dir, { recursive: true, force: true }));

const forum = (await withPact(await loadApi('forum')))!;
const RUN = 'rest rows=1 joins=0';
const INTERACTION = 'REST commentById, 1 row(s)';

/** The forum API with one run, the interactions named, and optionally an edited copy of its script. */
async function variant(interactions: readonly string[], edit?: (script: string) => string): Promise<PactApi> {
  let script = forum.script;
  if (edit) {
    // The copy lives outside the API folder: its imports of the shared k6 library become absolute.
    const source = (await readFile(forum.script, 'utf8')).replaceAll("'../../../bench/k6/", `'file://${repoRoot}/bench/k6/`);
    const edited = edit(source);
    assert.notEqual(edited, source, 'the edit must change the script');
    script = join(dir, `k6-${Math.random().toString(36).slice(2)}.js`);
    await writeFile(script, edited);
  }
  const pact = {
    ...forum.pact,
    runs: forum.pact.runs.filter((r) => r.name === RUN),
    interactions: forum.pact.interactions.filter((i) => interactions.includes(i.uponReceiving)),
  };
  // Its own pact file name, so that the test never overwrites make pact's.
  return { ...forum, name: `forum-drift-${Math.random().toString(36).slice(2)}`, script, pact };
}

test('the script and its pact agree', async () => {
  const outcome = await runConsumer(await variant([INTERACTION]));
  assert.deepEqual(outcome.problems, []);
  assert.ok(outcome.runs[0]!.requests > 0);
  await rm(outcome.file, { force: true });
});

test('the script reading a field the pact does not promise fails the consumer test', async () => {
  const outcome = await runConsumer(
    await variant([INTERACTION], (s) =>
      s.replace("if (typeof body !== 'string') return false;", "if (typeof body !== 'string' || !body.includes('\"thread_id\":')) return false;"),
    ),
  );
  assert.equal(outcome.passed, false);
  assert.match(outcome.problems.join('\n'), /k6 rejected answers the pact describes \(\d+× check\)/);
});

test('the script sending a request no interaction describes fails the consumer test', async () => {
  const outcome = await runConsumer(
    await variant([INTERACTION], (s) => s.replace("rest: (id) => '/comment/' + id,", "rest: (id) => '/comment/' + id + '?fields=all',")),
  );
  assert.equal(outcome.passed, false);
  assert.match(outcome.problems.join('\n'), /fields=all|Unexpected|not expected|mismatch/i);
});

test('an interaction the script never uses fails the consumer test', async () => {
  const outcome = await runConsumer(await variant([INTERACTION, 'REST commentsByLimit, 50 row(s)']));
  assert.equal(outcome.passed, false);
  assert.match(outcome.problems.join('\n'), /expected but not received/);
});
