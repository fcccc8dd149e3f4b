// The benchmark's options from their one table (src/plan/option-table.ts): read as flags or
// Make variables, resolved with the profile's values and the table's defaults, listed by
// make help and on the options page, and passed by the Makefile without naming them.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { UsageError } from '@fairbench/harness/cli/usage.ts';
import { repoRoot } from '@fairbench/harness/paths.ts';
import { blockMarkers } from '@fairbench/harness/readme-block.ts';
import { OPTION_TABLE, valueAt, type OptionRow } from '../../src/plan/option-table.ts';
import { helpLines, OPTIONS_PAGE, optionsMarkdown } from '../../src/plan/option-docs.ts';
import { resolveOptions } from '../../src/plan/options.ts';
import { chooseProfile, loadProfiles } from '../../src/plan/profiles.ts';
import { readRequested } from '../../src/plan/requested.ts';

const rows: readonly OptionRow[] = OPTION_TABLE;

test('a flag wins over its Make variable; each kind is converted; an empty variable is not a request', () => {
  const env = { IMPL: 'express,hapi', REPEAT: '3', DURATION: '2.5', PIN: '0', QUICK: 'yes', CASES: '', SEED: '7' };
  const r = readRequested('bench', ['--repeat', '4', '--model', 'closed,open'], env);
  assert.deepEqual(r, { impls: ['express', 'hapi'], quick: true, repeat: 4, durationSeconds: 2.5, models: ['closed', 'open'], pin: false, seed: 7 });
  assert.deepEqual(readRequested('bench', ['--quick'], {}), { quick: true }, 'a yes-or-no flag stands alone');
  assert.deepEqual(readRequested('k6-operator', [], { REPEAT: '3', SEPARATE: '0' }), { separate: false }, 'an option another command takes is not read');
});

test('a value out of range, not of the kind or not among the choices, and an unknown flag, are usage errors naming the variable', () => {
  const refused = (argv: string[], env: Record<string, string>, message: RegExp) =>
    assert.throws(
      () => readRequested('bench', argv, env),
      (e: Error) => e instanceof UsageError && message.test(e.message),
    );
  refused([], { REPEAT: '0' }, /^REPEAT must be a number ≥ 1, got '0'/);
  refused([], { REPEAT: '2.5' }, /^REPEAT must be a whole number/);
  refused([], { PIN: 'yes' }, /^PIN must be one of 0, 1, got 'yes'/);
  refused([], { CROSSCHECK: 'ab' }, /^CROSSCHECK must be wrk, got 'ab'/);
  refused(['--repetitions', '3'], {}, /--repetitions.*options: --impl/);
});

test("resolved: requested, else the profile's value, else the table's default; the profile's switched slices become the recorded plan", async () => {
  const { profile, eta } = await chooseProfile('standard', false);
  const plain = resolveOptions({ impls: ['express'] }, profile, eta);
  assert.equal(plain.repeat, profile.repeat);
  assert.equal(plain.firstWarmupSeconds, profile.firstWarmupSeconds);
  assert.deepEqual(plain.warmupIterations, profile.warmupIterations);
  assert.equal(plain.pin, true);
  assert.equal(plain.seed, 1);
  assert.equal(plain.profile, 'standard');
  const s = profile.switchedSlices!;
  assert.deepEqual(plain.switchedSlices, { pairs: s.pairs, sliceSeconds: s.windowSeconds + s.guardSeconds, guardSeconds: s.guardSeconds });
  const given = resolveOptions({ impls: ['express'], repeat: 3, warmupIterations: 4, pin: false, crossCheck: 'wrk' }, profile, eta);
  assert.equal(given.repeat, 3);
  assert.deepEqual(given.warmupIterations, { ...profile.warmupIterations, max: 4 }, 'only the maximum is an option; the rule stays the profile’s');
  assert.equal(given.pin, false);
  assert.equal(given.crossCheck, 'wrk');
  assert.equal(plain.limits, true, "every kept point's database-alone cases, by the profile");
  assert.equal(resolveOptions({ impls: ['express'], limits: false }, profile, eta).limits, false, 'LIMITS=0');
  assert.equal(readRequested('bench', [], { LIMITS: '0' }).limits, false);
  assert.throws(() => resolveOptions({ warmupIterations: 1 }, profile, eta), /WARMUP_ITERATIONS must be 0 \(none\) or at least 2/);
});

test('the table: one row per Make variable and flag, each profile path in every profile, a help line each', async () => {
  const makes = rows.flatMap((r) => (r.make ? [r.make] : []));
  assert.equal(new Set(makes).size, makes.length, 'a Make variable twice');
  assert.equal(new Set(rows.map((r) => r.flag)).size, rows.length, 'a flag twice');
  const { profiles } = await loadProfiles();
  for (const r of rows) {
    assert.ok(r.help.length > 10 && r.entries.length > 0, r.name);
    if (r.profile) for (const [name, p] of Object.entries(profiles)) assert.notEqual(valueAt(p, r.profile), undefined, `profile ${name} has no ${r.profile}`);
  }
  assert.equal(helpLines().length, rows.length);
});

test('the Makefile names no option of the table; the options page is what make options writes', async () => {
  const makefile = await readFile(join(repoRoot, 'Makefile'), 'utf8');
  for (const target of ['bench', 'k6-operator']) {
    const recipe = makefile.split(`\n${target}: `)[1]!.split('\n\n')[0]!;
    assert.doesNotMatch(recipe, /\$\(/, `make ${target}'s recipe passes the options itself`);
  }
  const page = await readFile(join(repoRoot, OPTIONS_PAGE), 'utf8');
  const { start, end } = blockMarkers('options');
  assert.equal(page.slice(page.indexOf(start) + start.length, page.indexOf(end)).trim(), (await optionsMarkdown()).trim(), 'run make options');
});
