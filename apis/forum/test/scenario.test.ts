// The forum matrix as data: expansion, ids, filters, and the baseline's SQL being the
// SQL the Express implementation runs.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { selectCases } from '@fairbench/bench/plan/select.ts';
import { defaultModels, expandCases, loadScenario } from '../bench/scenario.ts';

const SCENARIO = new URL('../bench/scenario.yaml', import.meta.url).pathname;
const { scenario } = await loadScenario(SCENARIO);
const closed = expandCases(scenario, ['closed']);
/** The runner's selection over the forum's cases (as the benchmark module plans them). */
const filterCases = (cases: typeof closed, selection: Parameters<typeof selectCases>[1]) =>
  selectCases(
    cases.map((c) => ({ ...c, parameters: {} })),
    selection,
  );

describe('forum scenario', () => {
  test("the closed model is the default and expands to the paper's 18 cases per protocol plus their baselines", () => {
    assert.deepEqual(defaultModels(scenario), ['closed']);
    assert.equal(closed.length, 18 * 3);
    for (const protocol of ['rest', 'graphql', 'database']) assert.equal(closed.filter((c) => c.protocol === protocol).length, 18);
    assert.equal(new Set(closed.map((c) => c.id)).size, closed.length, 'case ids are unique');
    assert.ok(closed.some((c) => c.id === 'rest/closed/c100-r1-j0'));
    assert.ok(closed.some((c) => c.id === 'database/closed/c500-r100-j1'));
  });

  test("each (rows, joins) point asks the paper's operation", () => {
    const op = (rows: number, joins: number) => closed.find((c) => c.rows === rows && c.joins === joins)?.operation.name;
    assert.equal(op(1, 0), 'commentById');
    assert.equal(op(1, 1), 'commentByUserId');
    assert.equal(op(50, 0), 'commentsByLimit');
    assert.equal(op(100, 1), 'commentsByUserId');
  });

  test('the open model expands by rate with the same axes', () => {
    const open = expandCases(scenario, ['open']);
    assert.equal(open.length, (scenario.models.open?.rate.length ?? 0) * 6 * 3);
    assert.ok(open.every((c) => c.model === 'open' && c.rate !== undefined && /^\w+\/open\/rate\d+-r\d+-j[01]$/.test(c.id)));
  });

  test('filters: protocol and CASES (glob or regex) pick REST/GraphQL cases; the baselines of their points come along', () => {
    const rest = filterCases(closed, { protocols: ['rest'] });
    assert.equal(rest.length, 36);
    assert.ok(rest.every((c) => c.protocol !== 'graphql'));
    const glob = filterCases(closed, { cases: '*/closed/c100-*' });
    assert.equal(glob.length, 18);
    const regex = filterCases(closed, { cases: 'rest/closed/c100.*' });
    assert.equal(regex.filter((c) => c.protocol === 'rest').length, 6);
    assert.equal(regex.filter((c) => c.protocol === 'database').length, 6, 'each REST point keeps its database-alone case');
    assert.equal(regex.length, 12);
    assert.deepEqual(
      filterCases(closed, { cases: 'graphql/closed/c250-r50-j1' }).map((c) => c.id),
      ['graphql/closed/c250-r50-j1', 'database/closed/c250-r50-j1'],
    );
    assert.deepEqual(
      filterCases(closed, { cases: 'rest/closed/c100-r1-j0,graphql/*/c500-r1-j0' }).map((c) => c.id),
      ['rest/closed/c100-r1-j0', 'database/closed/c100-r1-j0', 'graphql/closed/c500-r1-j0', 'database/closed/c500-r1-j0'],
    );
    assert.deepEqual(filterCases(closed, { cases: 'database/*' }), [], 'baselines alone compare with nothing');
    assert.deepEqual(filterCases(closed, { models: ['open'] }), []);
  });

  test('the baseline runs exactly the SQL impl/express runs for each operation', async () => {
    const { createForumData } = (await import(new URL('../../../impl/express/src/data/forum.js', import.meta.url).href)) as {
      createForumData: (pool: unknown) => Record<string, (...args: unknown[]) => Promise<unknown>>;
    };
    const seen: string[] = [];
    // A recording pool: the data module only calls execute({ sql, timeout }, args).
    const data = createForumData({ execute: async (q: string | { sql: string }) => (seen.push(typeof q === 'string' ? q : q.sql), [[]]) });
    const norm = (s: string) => s.replace(/\s+/g, ' ').trim();
    const method: Record<string, string> = { commentByUserId: 'firstCommentByUserId' }; // the data module's name for it
    for (const op of scenario.operations) {
      seen.length = 0;
      const fn = data[method[op.name] ?? op.name];
      assert.ok(fn, `impl/express has no ${op.name}`);
      await fn(1, 5);
      assert.equal(norm(op.sql), norm(seen[0] ?? ''), op.name);
    }
  });
});
