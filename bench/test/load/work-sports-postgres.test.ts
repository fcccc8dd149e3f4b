// The sports model's login against the real PostgreSQL, through the sampler and the check,
// with pg_stat_database's reporting lag: backends report at most once a second, so a window
// of a few seconds is checked with that second allowed; an honest pool's logins pass, half of
// them answered from a cache are missing work (pg_stat_statements' rows, which do not lag).
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, test } from 'node:test';
import pg from 'pg';
import { runCleanup } from '@fairbench/harness/cleanup.ts';
import { repoRoot } from '@fairbench/harness/paths.ts';
import { localProvider } from '@fairbench/harness/provision/local/index.ts';
import { openWorkReader } from '@fairbench/harness/work/index.ts';
import { loadWorkModel } from '../../src/plan/work-model.ts';
import { WorkSampler } from '../../src/load/work-sampler.ts';
import { checkWork } from '../../src/record/work-check.ts';

after(() => runCleanup());

const SPORTS = join(repoRoot, 'apis', 'sports');
// impl/express/src/data/sports.js credentials(): the user and its hash by username.
const LOGIN = 'SELECT id, username, name, surname, role, password_hash FROM app_user WHERE username = $1';

test("sports on PostgreSQL: a pool's logins make the model's work despite the stats' lag; half from a cache is missing work", async (t) => {
  const model = (await loadWorkModel({ dir: SPORTS }))!;
  const server = await localProvider.start('postgres');
  try {
    const setup = new pg.Client({ connectionString: server.url });
    await setup.connect();
    await setup.query(await readFile(join(SPORTS, 'dataset', 'schema.sql'), 'utf8'));
    await setup.query(
      `INSERT INTO app_user (username, password_hash, name, surname, role) SELECT 'u' || g, repeat('x', 60), 'n', 's', 'user' FROM generate_series(1, 100) g`,
    );
    await setup.end();
    const pool = new pg.Pool({ connectionString: server.url, max: 4 });
    // pool.end() can resolve before its sockets are closed: the stopping server then terminates
    // them, and a pool without a listener would throw that after the test.
    pool.on('error', () => {});
    /** Logins from 4 connections for `ms`; `cached`: every other one answered from a cache instead. */
    const window = async (ms: number, cached: boolean) => {
      const sampler = new WorkSampler(await openWorkReader(server), 200);
      await sampler.start();
      const from = Date.now();
      let answers = 0;
      await Promise.all(
        Array.from({ length: 4 }, async () => {
          while (Date.now() - from < ms) {
            const i = answers++;
            if (cached && i % 2 === 1) continue;
            await pool.query({ name: 'login', text: LOGIN, values: [`u${1 + (i % 100)}`] });
          }
        }),
      );
      const to = Date.now();
      await sampler.stop();
      const work = sampler.between(from, to);
      assert.ok(typeof work !== 'string', String(work));
      return checkWork(model, { login: { requests: answers, errors: 0 } }, work, { parameters: {}, sharedServer: false });
    };
    const honest = await window(2_500, false);
    t.diagnostic(`honest: ${JSON.stringify(honest.counters.map((c) => [c.counter, c.observed, c.min, c.status]))}`);
    assert.equal(honest.verdict, 'checked', honest.reasons.join('; '));
    const cacher = await window(2_500, true);
    t.diagnostic(`cacher: ${cacher.reasons.join('; ')}`);
    assert.equal(cacher.verdict, 'missing work');
    assert.ok(cacher.counters.some((c) => c.counter === 'statements.rows' && c.status === 'missing'));
    await pool.end();
  } finally {
    await server.stop();
  }
});
