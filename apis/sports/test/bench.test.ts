// The sports benchmark's plan: the paper's Table 3 ramp as k6 stages (five waves of 20 users
// every 120 s, held until 1,510 s, stopped over 300 s), its QUICK and DURATION_SCALE
// variants, the five groups, and the accounts the load takes from the seed.
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import sportsBench, { accounts } from '../bench/index.ts';
import { durationScale, rampStages, stressStages } from '../bench/scenario.ts';
import { generateSports } from '../dataset/generate.ts';
import { CONFORMANCE_SCALE } from '../dataset/model.ts';

const SCENARIO = fileURLToPath(new URL('../bench/scenario.yaml', import.meta.url));
const TABLE_3 = { waves: 5, usersPerWave: 20, waveEverySeconds: 120, startupSeconds: 10, holdUntilSeconds: 1510, shutdownSeconds: 300 };

test('Table 3 as stages: 20 more users every 2 minutes up to 100, held to 1,510 s, stopped over 300 s', () => {
  const stages = rampStages(TABLE_3, 20, 1);
  assert.deepEqual(stages.slice(0, 4), [
    { seconds: 10, target: 20 },
    { seconds: 110, target: 20 },
    { seconds: 10, target: 40 },
    { seconds: 110, target: 40 },
  ]);
  assert.deepEqual(stages.slice(-3), [
    { seconds: 10, target: 100 },
    { seconds: 1020, target: 100 },
    { seconds: 300, target: 0 },
  ]);
  assert.equal(
    stages.reduce((s, x) => s + x.seconds, 0),
    1810,
  );
  assert.equal(Math.max(...stages.map((s) => s.target)), 100);
});

test('the plan: one load point with its database-alone cases (driver, native), five groups of 100 at the peak; QUICK and DURATION_SCALE keep the shape', async () => {
  const full = await sportsBench.plan({}, SCENARIO);
  assert.deepEqual(
    full.cases.map((c) => c.id),
    ['rest/closed/load', 'database/closed/load', 'native/closed/load', 'rest/closed/stress'],
  );
  const load = full.cases[0]!;
  assert.deepEqual(Object.keys(load.groups), ['create-facilities', 'reserve', 'retrieve', 'rate', 'accept']);
  assert.deepEqual([load.parameters['peakUsers'], load.seconds], [500, 1810]);
  const quick = (await sportsBench.plan({ quick: true }, SCENARIO)).cases[0]!;
  assert.equal(quick.parameters['peakUsers'], 50);
  assert.ok(Math.abs(quick.seconds - 1810 * 0.03) < 0.01);
  assert.equal(durationScale('0.5'), 0.5);
  assert.throws(() => durationScale('2'), /DURATION_SCALE/);
  await assert.rejects(sportsBench.plan({ models: ['open'] }, SCENARIO), /MODEL/);
});

test('the stress ramp: 100 users per group, 100 more every minute, held at the cap until it ends', () => {
  const failure = { meanMs: 30000, meanSeconds: 60, errorRate: 0.5, errorSeconds: 10 };
  const recovery = { withinSeconds: 60, everyMs: 500 };
  const stages = stressStages({ startUsers: 100, stepUsers: 100, stepSeconds: 60, rampSeconds: 5, maxUsers: 300, maxSeconds: 400, failure, recovery });
  assert.deepEqual(stages, [
    { seconds: 5, target: 100 },
    { seconds: 55, target: 100 },
    { seconds: 5, target: 200 },
    { seconds: 55, target: 200 },
    { seconds: 5, target: 300 },
    { seconds: 55, target: 300 },
    { seconds: 220, target: 300 },
  ]);
  // A cap in time before the cap in users: cut mid-step.
  const short = stressStages({ startUsers: 100, stepUsers: 100, stepSeconds: 60, rampSeconds: 5, maxUsers: 1000, maxSeconds: 90, failure, recovery });
  assert.deepEqual(short, [
    { seconds: 5, target: 100 },
    { seconds: 55, target: 100 },
    { seconds: 5, target: 200 },
    { seconds: 25, target: 200 },
  ]);
});

test('the stress case: the cap and the stop conditions from the scenario, QUICK its scaled-down shape', async () => {
  const full = (await sportsBench.plan({ cases: 'rest/closed/stress' }, SCENARIO)).cases;
  assert.deepEqual(
    full.map((c) => c.id),
    ['rest/closed/stress'],
  );
  const stress = full[0]!;
  assert.deepEqual([stress.parameters['startUsers'], stress.parameters['capUsers'], stress.seconds], [500, 5000, 660]);
  assert.deepEqual(stress.stress!.failure, { meanMs: 30000, meanSeconds: 60, errorRate: 0.5, errorSeconds: 10 });
  assert.equal(Math.max(...stress.stages.map((s) => s.target)), 1000);
  assert.equal(
    stress.stages.reduce((a, s) => a + s.seconds, 0),
    660,
  );
  assert.equal(stress.overTimeSeconds, 60);
  assert.equal(stress.freshServerEachRepetition, true, 'its abandoned sign-ups must not run beside the next repetition');
  const load = (await sportsBench.plan({ cases: 'rest/closed/load' }, SCENARIO)).cases;
  assert.ok(load.length > 0 && !load.some((c) => c.freshServerEachRepetition), 'the load test keeps its server');
  const quick = (await sportsBench.plan({ cases: 'rest/closed/stress', quick: true }, SCENARIO)).cases[0]!;
  assert.deepEqual([quick.parameters['capUsers'], quick.seconds, quick.stress!.failure.meanSeconds], [300, 70, 10]);
  assert.equal(
    quick.stages.reduce((a, s) => a + s.seconds, 0),
    70,
  );
});

test('the accounts: every owner with its facilities and password, each field mapped to its owner', async () => {
  const data = await generateSports(CONFORMANCE_SCALE);
  const { owners, users, fieldOwners } = accounts(data);
  assert.deepEqual(
    owners.map((o) => [o.id, o.facilities]),
    [
      [1, [1, 2]],
      [2, [3, 4]],
      [3, [5, 6]],
    ],
  );
  assert.equal(owners[0]!.password, data.passwords.get(1));
  assert.equal(users.length, 6);
  assert.deepEqual(fieldOwners.slice(0, 7), [1, 1, 1, 1, 1, 1, 2]);
});
