// The sports API's native tier: the ramp as pgbench runs of constant users, and each group's
// flow as a pgbench script of the statements baseline.ts runs (the seed's layout checked).
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import sportsBench from '../bench/index.ts';
import { groupScript, rampSegments, usersAt } from '../bench/native.ts';
import { loadSportsScenario } from '../bench/scenario.ts';

const SCENARIO = fileURLToPath(new URL('../bench/scenario.yaml', import.meta.url));

test("the ramp second by second: the users at each second's middle, times the groups, equal neighbours merged", () => {
  const stages = [
    { seconds: 0.3, target: 2 },
    { seconds: 3.3, target: 2 },
    { seconds: 0.3, target: 4 },
    { seconds: 2.1, target: 4 },
    { seconds: 3, target: 0 },
  ];
  assert.equal(usersAt(stages, 0.15), 1);
  assert.equal(usersAt(stages, 100), -1);
  // 9 s: 2 users in seconds 0–3 (the 0.3 s rise ends inside the first), 4 in 4–5, then 3.3, 2, 0.7 on the way down.
  assert.deepEqual(rampSegments(stages, 5), [
    { clients: 10, seconds: 4 },
    { clients: 20, seconds: 2 },
    { clients: 15, seconds: 1 },
    { clients: 10, seconds: 1 },
    { clients: 5, seconds: 1 },
  ]);
});

test("each group's script: its steps' statements in order, an iteration counter and a slot unique per run, iteration, client and group", async () => {
  const { scenario } = await loadSportsScenario(SCENARIO);
  const rate = groupScript(scenario.groups['rate']!, 3, 5);
  assert.match(rate, /^\\set k :k \+ 1\n\\set slot \(\(:run \* 1000000 \+ :k\) \* 1000 \+ :client_id\) \* 5 \+ 3\n/);
  const order = [
    'INSERT INTO app_user',
    "WHERE username = 'p' || :slot::text",
    'FROM sports_field ORDER BY id LIMIT 20',
    'INSERT INTO reservation',
    "UPDATE reservation SET status = 'accepted'",
    'INSERT INTO rating',
  ];
  const at = order.map((s) => rate.indexOf(s));
  assert.ok(
    at.every((i, n) => i > (at[n - 1] ?? -1)),
    `in order: ${at.join(', ')}`,
  );
  assert.match(
    groupScript(scenario.groups['retrieve']!, 2, 5),
    /\\set u random\(1, :users\)\nSELECT id, role, password_hash FROM app_user WHERE username = 'user' \|\| :u::text/,
  );
  assert.match(groupScript(scenario.groups['create-facilities']!, 0, 5), /WHERE username = 'owner' \|\| :o::text[\s\S]*INSERT INTO sports_field/);
  assert.doesNotMatch(groupScript(scenario.groups['retrieve']!, 2, 5), /INSERT/);
});

test('the plan: the load point in three tiers (HTTP, the pg driver, pgbench), then the stress test (HTTP only)', async () => {
  const plan = await sportsBench.plan({ quick: true }, SCENARIO);
  assert.deepEqual(
    plan.cases.map((c) => [c.id, c.tier ?? 'http']),
    [
      ['rest/closed/load', 'http'],
      ['database/closed/load', 'driver'],
      ['native/closed/load', 'native'],
      ['rest/closed/stress', 'http'],
    ],
  );
});
