// The forum's native tier: sysbench runs the case's own statement, and native.lua draws the
// same ids as k6.js and the driver-tier client (bench/k6/prng.js), bit for bit.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import forumBench, { forumNativeConfig } from '../bench/index.ts';
import { connectionOptions, sysbenchArgs } from '../bench/native.ts';
import { mulberry32 } from '../../../bench/k6/prng.js';

const SCENARIO = fileURLToPath(new URL('../bench/scenario.yaml', import.meta.url));
const LUA = fileURLToPath(new URL('../bench/native.lua', import.meta.url));

test("native.lua's mulberry32 gives prng.js's ids for threads 0 and 1 (sysbench's LuaJIT)", () => {
  const seed = 20260101;
  const out = execFileSync('sysbench', [LUA, `--seed=${seed}`, '--comment-ids=200000', 'draws'], { encoding: 'utf8' });
  const lua = out
    .split('\n')
    .filter((l) => /^\d+$/.test(l))
    .map(Number);
  const js = [0, 1].flatMap((t) => {
    const r = mulberry32(seed * 100003 + t + 1);
    return Array.from({ length: 5 }, () => 1 + Math.floor(r() * 200000));
  });
  assert.deepEqual(lua, js);
});

test('every point has its three tiers: HTTP cases, the driver (database) case, then the native case with the same statement', async () => {
  const plan = await forumBench.plan({ cases: 'rest/closed/c500-r50-j1' }, SCENARIO);
  assert.deepEqual(
    plan.cases.map((c) => [c.id, c.tier ?? 'http']),
    [
      ['rest/closed/c500-r50-j1', 'http'],
      ['database/closed/c500-r50-j1', 'driver'],
      ['native/closed/c500-r50-j1', 'native'],
    ],
  );
  assert.deepEqual(forumBench.tiers, ['native', 'driver', 'http']);
  const c = plan.cases[2]!.forum;
  const config = forumNativeConfig(
    c,
    { warmupSeconds: 1, durationSeconds: 2, seed: 9 },
    'mysql://u:p%40w@127.0.0.1:3307/forum',
    { comment: 200000, user: 1000 },
    100,
  );
  // 500 clients share a pool of 100 in the implementations: 100 statements in flight at the database.
  assert.equal(config.threads, 100);
  const args = sysbenchArgs(config, 'conn.conf', 'x.lua');
  assert.ok(!args.some((a) => a.includes('p@w')), 'the password stays off the command line');
  assert.equal(connectionOptions(config.mysqlUrl), 'mysql-host=127.0.0.1\nmysql-port=3307\nmysql-user=u\nmysql-password=p@w\nmysql-db=forum\n');
  for (const a of [
    '--config-file=conn.conf',
    `--sql=${c.operation.sql}`,
    '--args=userId,rows',
    '--rows=50',
    '--user-ids=1000',
    '--seed=9',
    '--threads=100',
    '--time=3',
    '--report-checkpoints=1',
    '--histogram=on',
  ]) {
    assert.ok(args.includes(a), `${a} in ${args.join(' ')}`);
  }
});
