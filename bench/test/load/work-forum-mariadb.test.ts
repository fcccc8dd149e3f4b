// The forum's work model against the real MariaDB, through the sampler and the check: the
// statements every forum implementation runs (apis/forum/bench/scenario.yaml), sent from a
// pool as answers; an honest window is checked, one that answers half its requests from a
// cache is missing work. A small data set of the forum's schema (20 users × 200 comments).
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, test } from 'node:test';
import mysql from 'mysql2/promise';
import { parse } from 'yaml';
import { runCleanup } from '@fairbench/harness/cleanup.ts';
import { repoRoot } from '@fairbench/harness/paths.ts';
import { localProvider } from '@fairbench/harness/provision/local/index.ts';
import { openWorkReader } from '@fairbench/harness/work/index.ts';
import { loadWorkModel } from '../../src/plan/work-model.ts';
import { WorkSampler } from '../../src/load/work-sampler.ts';
import { checkWork } from '../../src/record/work-check.ts';

after(() => runCleanup());

const FORUM = join(repoRoot, 'apis', 'forum');

test("forum on MariaDB: a pool's answers make the model's work; half of them from a cache is missing work", async (t) => {
  const model = (await loadWorkModel({ dir: FORUM }))!;
  const { operations } = parse(await readFile(join(FORUM, 'bench', 'scenario.yaml'), 'utf8')) as { operations: { name: string; sql: string }[] };
  const sql = Object.fromEntries(operations.map((o) => [o.name, o.sql]));
  const server = await localProvider.start('mysql');
  try {
    const setup = await mysql.createConnection({ uri: server.url, multipleStatements: true });
    await setup.query(await readFile(join(FORUM, 'dataset', 'schema.sql'), 'utf8'));
    await setup.query("INSERT INTO user (user_id, name, email, phone) SELECT seq, 'n', 'e', 'p' FROM seq_1_to_20");
    await setup.query("INSERT INTO category (category_id, name, description) VALUES (1, 'c', 'd')");
    await setup.query("INSERT INTO thread (thread_id, category_id, user_id, title, body) SELECT seq, 1, 1, 't', 'b' FROM seq_1_to_200");
    await setup.query("INSERT INTO comment (thread_id, user_id, body) SELECT t.seq, u.seq, 'b' FROM seq_1_to_20 u JOIN seq_1_to_200 t ORDER BY u.seq, t.seq");
    await setup.end();
    const pool = mysql.createPool({ uri: server.url, connectionLimit: 4 });
    /** `n` answers of commentsByUserId (rows 50) from 4 connections; `cached`: every other one from a cache instead. */
    const window = async (n: number, cached: boolean) => {
      const sampler = new WorkSampler(await openWorkReader(server), 20);
      await sampler.start();
      const from = Date.now();
      let next = 0;
      await Promise.all(
        Array.from({ length: 4 }, async () => {
          while (next < n) {
            const i = next++;
            if (cached && i % 2 === 1) continue;
            await pool.execute(sql['commentsByUserId']!, [1 + (i % 20), '50']);
          }
        }),
      );
      const to = Date.now();
      await sampler.stop();
      const work = sampler.between(from, to);
      assert.ok(typeof work !== 'string', String(work));
      // The readings nearest the window's ends may lie inside it (the sampler reads every 20 ms
      // while the answers run): the answers of those edges, at the window's mean rate, may be missed.
      const edgeAnswers = 4 + Math.ceil((n * (work.edgeSeconds ?? 0)) / Math.max(work.seconds, 0.001));
      return { edgeAnswers, ...checkWork(model, { commentsByUserId: { requests: n, errors: 0 } }, work, { parameters: { rows: 50 }, sharedServer: false }) };
    };
    const honest = await window(1_000, false);
    t.diagnostic(`honest: ${JSON.stringify(honest.counters.map((c) => [c.counter, c.observed, c.min, c.status]))}`);
    assert.equal(honest.verdict, 'checked', honest.reasons.join('; '));
    // The answers' work: 51 rows each (50 comments and the user), one statement each, and no
    // more (the reader's own statements taken out); at most the answers of the window's edges less.
    const observed = (name: string) => honest.counters.find((c) => c.counter === name)?.observed ?? -1;
    const edge = honest.edgeAnswers;
    assert.ok(observed('Com_select') <= 1_000 && observed('Com_select') >= 1_000 - edge, `Com_select ${observed('Com_select')}, edges ${edge} answers`);
    assert.ok(
      observed('table_statistics.rows_read') <= 51_000 && observed('table_statistics.rows_read') >= 51_000 - edge * 51,
      `rows_read ${observed('table_statistics.rows_read')}, edges ${edge} answers`,
    );
    const cacher = await window(1_000, true);
    t.diagnostic(`cacher: ${cacher.reasons.join('; ')}`);
    assert.equal(cacher.verdict, 'missing work');
    assert.deepEqual(
      cacher.counters
        .filter((c) => c.status === 'missing')
        .map((c) => c.counter)
        .sort(),
      ['Com_select', 'table_statistics.rows_read'],
    );
    await pool.end();
  } finally {
    await server.stop();
  }
});
