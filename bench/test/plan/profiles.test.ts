// make bench's profiles as data (bench/profiles.yaml) and the ETA computed from the plan.
import assert from 'node:assert/strict';
import { MIN_PROCESS_PAIRS, PAIRED_FROM } from '../../src/stats/index.ts';
import { test } from 'node:test';
import { loadApis } from '@fairbench/harness/api/manifest.ts';
import { benchApi } from '../../src/plan/apis.ts';
import { UsageError } from '../../src/load/failure.ts';
import { apiSubset, withSubsetOptions, chooseProfile, loadProfiles, profileCases } from '../../src/plan/profiles.ts';
import { plannedSeconds, Progress } from '../../src/execute/progress.ts';
import { CaseLoopEvents } from '../../src/execute/case-loop/events.ts';

test('the default is standard; QUICK=1 is PROFILE=quick; an unknown or contradictory profile is a usage error', async () => {
  assert.equal((await chooseProfile(undefined, false)).profile.name, 'standard');
  const quick = (await chooseProfile(undefined, true)).profile;
  assert.deepEqual([quick.name, quick.repeat, quick.durationSeconds, quick.warmupSeconds, quick.quick], ['quick', 1, 2, 1, true]);
  assert.equal((await chooseProfile('paper', false)).profile.repeat, 10);
  await assert.rejects(chooseProfile('fast', false), (e: unknown) => e instanceof UsageError && /quick, standard, paper/.test(e.message));
  await assert.rejects(chooseProfile('paper', true), UsageError);
});

test('the standard profile compares two implementations over process pairs: enough for the t-test, each with its round and its switched pairs', async () => {
  const { profiles } = await loadProfiles();
  const p = profiles['standard']!;
  assert.ok(p.processPairs >= MIN_PROCESS_PAIRS, `${p.processPairs} process pairs`);
  assert.ok(p.repeat >= p.processPairs, 'every start measures at least one round of separate loads');
  assert.ok(p.switchedSlices!.pairs >= 5 * p.processPairs, 'every start measures at least 5 switched pairs');
  for (const [name, q] of Object.entries(profiles)) assert.ok(q.processPairs >= 1, name);
});

test('switched slices, where a profile has them, are paired too and leave each slice a window after its guard', async () => {
  const { profiles } = await loadProfiles();
  assert.ok(profiles['standard']!.switchedSlices, 'the standard profile switches where it can');
  for (const [name, p] of Object.entries(profiles)) {
    const s = p.switchedSlices;
    if (!s) continue;
    assert.ok(s.pairs >= PAIRED_FROM, `${name}: ${s.pairs} pairs`);
    assert.ok(
      s.windowSeconds > 0 && s.guardSeconds >= 0 && s.guardSeconds < s.windowSeconds,
      `${name}: window ${s.windowSeconds} s, guard ${s.guardSeconds} s`,
    );
  }
});

test('the standard profile gives verdicts: at least 5 repetitions (the rank test needs them)', async () => {
  const { profiles } = await loadProfiles();
  assert.ok(profiles['standard']!.repeat >= 5);
});

test("every API's standard subset names cases its scenario has, and CASES= overrides it", async () => {
  const { profile } = await chooseProfile('standard', false);
  for (const { manifest } of await loadApis()) {
    const subset = await apiSubset(manifest.name, 'standard');
    if (!subset) continue;
    const api = await benchApi(manifest.name);
    const { cases, quick } = await profileCases(profile, manifest.name, undefined);
    assert.equal(quick, subset.quick === true ? true : undefined, `${manifest.name}: the subset's quick variant is passed on`);
    const all = await api.module.plan({ quick: false }, api.scenarioFile);
    const kept = await api.module.plan({ quick: quick ?? false, cases: cases! }, api.scenarioFile);
    // A subset keeps fewer cases, or (an API of one long case) the same ones in their quick variant.
    assert.ok(
      kept.cases.length > 0 && (kept.cases.length < all.cases.length || quick === true),
      `${manifest.name}: the subset keeps ${kept.cases.length} of ${all.cases.length}`,
    );
    for (const pattern of subset.cases) {
      const one = await api.module.plan({ quick: quick ?? false, cases: pattern }, api.scenarioFile);
      assert.ok(one.cases.length > 0, `${manifest.name}: '${pattern}' matches no case`);
    }
  }
  assert.deepEqual(await profileCases(profile, 'forum', 'rest/closed/c100-r1-j0'), { cases: 'rest/closed/c100-r1-j0', profile });
  const paper = (await chooseProfile('paper', false)).profile;
  assert.deepEqual(await profileCases(paper, 'forum', undefined), { profile: paper });
});

test("an API's subset sets the profile's repetitions, process pairs, warm-up iterations and limits for its API alone, CASES= or not", async () => {
  const { profile } = await chooseProfile('papers', false);
  for (const { manifest } of await loadApis()) {
    const subset = await apiSubset(manifest.name, 'papers');
    const own = (await profileCases(profile, manifest.name, undefined)).profile;
    const o = subset?.options;
    if (!o) {
      assert.equal(own, profile, `${manifest.name}: no options, the profile as it is`);
      continue;
    }
    assert.equal(own.repeat, o.repeat ?? profile.repeat);
    assert.equal(own.processPairs, o.processPairs ?? profile.processPairs);
    assert.deepEqual(own.warmupIterations, { ...profile.warmupIterations, ...(o.warmupIterations ?? {}) });
    assert.equal(own.limits, o.limits ?? profile.limits);
    assert.equal(own.durationSeconds, profile.durationSeconds, `${manifest.name}: what the subset does not set stays the profile's`);
    assert.deepEqual((await profileCases(profile, manifest.name, 'rest/*')).profile, own, `${manifest.name}: CASES= keeps the API's options`);
  }
  const toy = withSubsetOptions(profile, { warmupIterations: { max: 0 } });
  assert.deepEqual(toy, { ...profile, warmupIterations: { ...profile.warmupIterations, max: 0 } });
});

test('the ETA is the plan from the first repetition: the load, a repetition overhead, a restart per step', () => {
  const eta = { repetitionOverheadSeconds: 1, caseOverheadSeconds: 3 };
  const loads = [8, 8, 4].map((seconds) => ({ seconds, firstExtra: 0 }));
  assert.equal(plannedSeconds(loads, 5, eta), 5 * (9 + 9 + 5) + 3 * 3);
  const p = new Progress(loads, 5, eta);
  assert.equal(p.remainingSeconds(1, 1), plannedSeconds(loads, 5, eta));
  // With nothing measured yet, the ETA of step 2's first repetition leaves out step 1.
  const lines: string[] = [];
  const log = console.log;
  console.log = (line: string) => lines.push(line);
  try {
    for (let r = 1; r <= 5; r++) {
      p.begin(1, r, 'a');
    }
  } finally {
    console.log = log;
  }
  assert.match(lines[0]!, /ETA 02:04/); // 124 s = 5 × 9 + 3 + 5 × 9 + 3 + 5 × 5 + 3
  assert.equal(p.remainingSeconds(2, 1), 5 * 9 + 3 + 5 * 5 + 3);
});

test('a switched load is every repetition of both its steps: the ETA counts it once, then only the steps after', () => {
  const eta = { repetitionOverheadSeconds: 1, caseOverheadSeconds: 3 };
  const loads = [8, 8, 4].map((seconds) => ({ seconds, firstExtra: 0 }));
  const p = new Progress(loads, 5, eta);
  const lines: string[] = [];
  const log = console.log;
  console.log = (line: string) => lines.push(line);
  try {
    p.beginSwitched(1, [1, 2], 30, 'a ⇄ b');
  } finally {
    console.log = log;
  }
  // The switched load (30 s) and step 3 (5 × 5 + 3), nothing more of steps 1 and 2.
  assert.match(lines[0]!, /ETA 00:58/);
  assert.equal(p.remainingSeconds(3, 1), 5 * 5 + 3);
});

test("a served step's longer first warm-up counts once, until its first repetition has begun", () => {
  const eta = { repetitionOverheadSeconds: 1, caseOverheadSeconds: 3 };
  const loads = [
    { seconds: 8, firstExtra: 18 },
    { seconds: 4, firstExtra: 0 },
  ];
  assert.equal(plannedSeconds(loads, 5, eta), 5 * 9 + 18 + 3 + 5 * 5 + 3);
  const p = new Progress(loads, 5, eta);
  assert.equal(p.remainingSeconds(1, 1), plannedSeconds(loads, 5, eta));
  const log = console.log;
  console.log = () => {};
  try {
    p.begin(1, 1, 'a');
  } finally {
    console.log = log;
  }
  assert.equal(p.remainingSeconds(1, 2), 4 * 9 + 5 * 5 + 3, 'step 1 begun: its first warm-up is behind it');
});

test('every profile gives a first warm-up at least as long as the others', async () => {
  const { profiles } = await loadProfiles();
  for (const [name, p] of Object.entries(profiles)) assert.ok(p.firstWarmupSeconds >= p.warmupSeconds, `${name}: ${p.firstWarmupSeconds} < ${p.warmupSeconds}`);
  // The standard profile's puts express's and Bun's first iteration past their warming (~5 and ~7 s); the
  // iterations after it, until steady, carry a JVM's (Spring steady at its fifth load; bench/profiles.yaml).
  assert.ok(profiles['standard']!.firstWarmupSeconds >= 7);
  assert.ok(profiles['standard']!.warmupIterations.max >= 5);
});

test('warm-up iterations: a step plans the fewest the rule stops at, its first load carries the longer warm-up, and the ones it ran are behind it', () => {
  const eta = { repetitionOverheadSeconds: 1, caseOverheadSeconds: 3 };
  const loads = [
    { seconds: 8, firstExtra: 18, warmups: 2 },
    { seconds: 4, firstExtra: 0 },
  ];
  assert.equal(plannedSeconds(loads, 5, eta), 7 * 9 + 18 + 3 + 5 * 5 + 3);
  const p = new Progress(loads, 5, eta);
  assert.equal(p.remainingSeconds(1, 0, true), plannedSeconds(loads, 5, eta));
  const log = console.log;
  const lines: string[] = [];
  console.log = (line: string) => lines.push(line);
  try {
    p.beginWarmup(1, 1, 6, 'a');
    assert.equal(p.remainingSeconds(1, 0, true), 6 * 9 + 5 * 5 + 3, 'the first warm-up iteration (and its longer warm-up) behind it');
    p.beginWarmup(1, 2, 6, 'a');
    // A third iteration, beyond the plan: it still counts while it runs.
    assert.equal(p.remainingSeconds(1, 0, true), 6 * 9 + 5 * 5 + 3);
    p.beginWarmup(1, 3, 6, 'a');
    assert.equal(p.remainingSeconds(1, 1), 5 * 9 + 5 * 5 + 3, 'the repetitions begin: no warm-up left');
  } finally {
    console.log = log;
  }
  assert.match(lines[0]!, /^case 1\/2 · warm-up 1\/≤6 · a · ETA 01:52$/); // 112 s = 7 × 9 + 18 + 3 + 5 × 5 + 3
});

test('every profile warms with iterations or says none: max 0 or at least 2, and the standard profile has them', async () => {
  const { profiles } = await loadProfiles();
  for (const [name, p] of Object.entries(profiles))
    assert.ok(p.warmupIterations.max === 0 || p.warmupIterations.max >= 2, `${name}: max ${p.warmupIterations.max}`);
  assert.ok(profiles['standard']!.warmupIterations.max >= 5, 'room for the five loads spring needed to be steady (bench/profiles.yaml)');
  assert.equal(profiles['quick']!.warmupIterations.max, 0, 'a smoke run has none');
});

test("a plan's steps under process pairs: every start's restart, longer first warm-up and warm-ups; a switched load's slices split between its two steps", async () => {
  const { stepLoads } = await import('../../src/plan/run-plan.ts');
  const api = {
    module: { plannedSeconds: (_c: unknown, s: { warmupSeconds: number; durationSeconds: number }) => s.warmupSeconds + s.durationSeconds },
  } as never;
  const served = { id: 'rest/closed/c1', point: 'closed/c1', protocol: 'rest', model: 'closed' as const, parameters: {} };
  const alone = { ...served, id: 'database/closed/c1', protocol: 'database' };
  const options = {
    repeat: 9,
    warmupSeconds: 1,
    firstWarmupSeconds: 8,
    durationSeconds: 2,
    seed: 1,
    warmupIterations: { max: 6, steadyWithinPercent: 5 },
    processPairs: 9,
  };
  const separate = stepLoads([served, alone], 2, api, options, 3);
  assert.equal(separate.length, 3, 'a step per implementation, one for the database alone');
  assert.deepEqual(separate[0], { seconds: 3, firstExtra: 9 * 7 + 8 * 3, starts: 9, warmups: 9 * 2 });
  assert.deepEqual(separate[2], { seconds: 3, firstExtra: 0, warmups: 0 });
  const switched = stepLoads([served], 2, api, { ...options, switchedSlices: { pairs: 90, sliceSeconds: 1.25, guardSeconds: 0.25 } }, 3);
  // 9 loads of 1 s warm-up and 10 pairs of 2 × 1.25 s: 234 s, half per step, over its 9 counted loads.
  assert.equal(switched[0]!.seconds, (9 * 1 + 2 * 90 * 1.25) / (2 * 9));
  // A warm-up iteration is a whole separate load of the case (3 s), not a share of the switched one.
  assert.equal(
    plannedSeconds(switched, 9, { repetitionOverheadSeconds: 0, caseOverheadSeconds: 0 }),
    (2 * (9 * 1 + 2 * 90 * 1.25)) / 2 + 2 * (9 * 7 + 8 * 3) + 2 * 18 * 3,
  );
  // What each load costs around it is paid once per switched load (9 of them), once per warm-up iteration (36).
  const withOverhead = plannedSeconds(switched, 9, { repetitionOverheadSeconds: 1, caseOverheadSeconds: 0 });
  assert.equal(withOverhead - plannedSeconds(switched, 9, { repetitionOverheadSeconds: 0, caseOverheadSeconds: 0 }), 9 + 36);
  const fresh = stepLoads([{ ...served, freshServerEachRepetition: true }], 2, api, options, 3);
  assert.deepEqual(fresh[0], { seconds: 3 + 7, firstExtra: 0, warmups: 0 }, 'a fresh server each repetition: one start, every load its first');
});

test("under process pairs the ETA falls load by load: each start's restart, warm-ups and switched share are ahead of it until they run", async () => {
  const { stepLoads } = await import('../../src/plan/run-plan.ts');
  const api = {
    module: { plannedSeconds: (_c: unknown, s: { warmupSeconds: number; durationSeconds: number }) => s.warmupSeconds + s.durationSeconds },
  } as never;
  const served = { id: 'rest/closed/c1', point: 'closed/c1', protocol: 'rest', model: 'closed' as const, parameters: {} };
  const options = {
    repeat: 5,
    warmupSeconds: 1,
    firstWarmupSeconds: 8,
    durationSeconds: 5,
    seed: 1,
    warmupIterations: { max: 2, steadyWithinPercent: 5 },
    processPairs: 5,
    switchedSlices: { pairs: 50, sliceSeconds: 1.25, guardSeconds: 0.25 },
  };
  const eta = { repetitionOverheadSeconds: 0, caseOverheadSeconds: 3 };
  const steps = stepLoads([served, served], 2, api, options, eta.caseOverheadSeconds);
  const p = new Progress(steps, 5, eta);
  const events = p.listen(new CaseLoopEvents());
  const etas: number[] = [];
  const log = console.log;
  console.log = (line: string) => {
    const m = /ETA (?:(\d+):)?(\d+):(\d+)$/.exec(line);
    if (m) etas.push(Number(m[1] ?? 0) * 3600 + Number(m[2]) * 60 + Number(m[3]));
  };
  try {
    for (const first of [1, 3])
      for (let k = 1; k <= 5; k++) {
        events.emit('start-begin', { steps: [first, first + 1], start: k, of: 5 });
        for (const iteration of [1, 2])
          for (const step of [first, first + 1]) {
            events.emit('warmup-begin', { step, iteration, max: 2, label: 'c' });
            events.emit('load-end');
          }
        events.emit('load-begin', { step: first, repetition: 1, label: 'c', switched: { steps: [first, first + 1], seconds: 26, share: 1 / 5 } });
        events.emit('load-end');
      }
  } finally {
    console.log = log;
  }
  assert.equal(etas.length, 2 * 5 * 5);
  assert.equal(etas[0], Math.round(plannedSeconds(steps, 5, eta)), 'the first ETA is the plan');
  // Nothing measured takes longer here than planned: an ETA never rises from one load to the next.
  for (let i = 1; i < etas.length; i++) assert.ok(etas[i]! <= etas[i - 1]!, `ETA ${etas[i - 1]} s then ${etas[i]} s at load ${i + 1}`);
  assert.ok(etas.at(-1)! <= 26 + 1, 'the last load: about its own seconds left');
});
