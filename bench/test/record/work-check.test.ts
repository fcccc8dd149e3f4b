// Proof of work: each API's work model loads against its schema, and a window's work per
// answer is checked against it: the model's work passes, a cache's half of it is missing
// work, server-wide counters prove nothing when another load shared the server, a trailing
// counter's lag widens the allowance, and what the engine cannot count is not checkable.
import assert from 'node:assert/strict';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { loadApis } from '@fairbench/harness/api/manifest.ts';
import type { WorkCounter } from '@fairbench/harness/work/counters.ts';
import { loadWorkModel } from '../../src/plan/work-model.ts';
import { checkWork, type WindowWork, type WorkModel } from '../../src/record/work-check.ts';

const model: WorkModel = {
  engine: 'MariaDB',
  tolerance: 0.02,
  requestTypes: {
    byId: {
      counters: {
        rows_read: { min: 1, why: 'test' },
        rows_changed: { max: 0, why: 'test' },
        Com_select: { min: 1, max: 1, why: 'test' },
      },
    },
    page: { counters: { rows_read: { min: { parameter: 'rows', plus: 1 }, why: 'test' }, Com_select: { min: 1, max: 2, why: 'test' } } },
  },
};
const db = (value: number, lagMs?: number): WorkCounter => ({ value, scope: 'database', ...(lagMs ? { lagMs } : {}) });
const server = (value: number): WorkCounter => ({ value, scope: 'server' });
const work = (counters: Record<string, WorkCounter>, extra: Partial<WindowWork> = {}): WindowWork => ({
  engine: 'MariaDB',
  seconds: 20,
  counters,
  unavailable: {},
  ...extra,
});
const alone = { parameters: { rows: 50 }, sharedServer: false };

test('every API with a work model: it loads against the schema, and names request types with counters', async () => {
  const models = [];
  for (const api of await loadApis()) {
    const m = await loadWorkModel(api);
    if (m) models.push([api.manifest.name, m] as const);
  }
  const names = models.map(([n]) => n);
  for (const required of ['documents', 'forum', 'sports', 'tpcc', 'users']) assert.ok(names.includes(required), `apis/${required}/bench/work.yaml`);
  for (const [, m] of models) assert.ok(Object.keys(m.requestTypes).length > 0);
});

test("the model's work per answer is checked; a window with half of it (answers from a cache) is missing work", () => {
  const answers = { byId: { requests: 10_000, errors: 0 }, page: { requests: 1_000, errors: 0 } };
  const full = checkWork(model, answers, work({ rows_read: db(10_000 + 51_000), rows_changed: db(0), Com_select: server(11_000) }), alone);
  assert.equal(full.verdict, 'checked');
  assert.deepEqual(
    full.counters.map((c) => [c.counter, c.status, c.min, c.max]),
    [
      ['Com_select', 'ok', 11_000, 12_000],
      ['rows_changed', 'ok', 0, undefined], // page has no maximum of its own
      ['rows_read', 'ok', 61_000, undefined],
    ],
  );
  const cached = checkWork(model, answers, work({ rows_read: db(30_500), rows_changed: db(0), Com_select: server(5_500) }), alone);
  assert.equal(cached.verdict, 'missing work');
  assert.deepEqual(
    cached.counters.filter((c) => c.status === 'missing').map((c) => c.counter),
    ['Com_select', 'rows_read'],
  );
  assert.match(cached.reasons.join('; '), /rows_read: 30500 counted, the answers needed at least 61000 \(50\.0% of it\)/);
});

test('the tolerance: work 1% short passes, 5% short does not; failed answers need no work', () => {
  const answers = { byId: { requests: 10_000, errors: 1_000 } };
  const at = (rows: number) => checkWork(model, answers, work({ rows_read: db(rows), rows_changed: db(0), Com_select: server(9_000) }), alone).verdict;
  assert.equal(at(8_910), 'checked');
  assert.equal(at(8_550), 'missing work');
});

test('more work than the maximum is noted, not failed', () => {
  const v = checkWork(model, { byId: { requests: 100, errors: 0 } }, work({ rows_read: db(100), rows_changed: db(0), Com_select: server(200) }), alone);
  assert.equal(v.verdict, 'checked');
  assert.equal(v.counters.find((c) => c.counter === 'Com_select')?.status, 'excess');
});

test("a bound a database-alone tier is excepted from (its client does not do that work by design) does not hold in that tier's windows alone", () => {
  const excepted: WorkModel = {
    ...model,
    requestTypes: { byId: { counters: { rows_read: { min: 1, why: 'the caller', exceptTiers: ['native'] }, Com_select: { min: 1, why: 't' } } } },
  };
  const answers = { byId: { requests: 100, errors: 0 } };
  const noCaller = work({ rows_read: db(0), Com_select: server(100) });
  assert.equal(checkWork(excepted, answers, noCaller, { ...alone, tier: 'native' }).verdict, 'checked');
  assert.equal(checkWork(excepted, answers, noCaller, { ...alone, tier: 'driver' }).verdict, 'missing work');
  assert.equal(checkWork(excepted, answers, noCaller, { ...alone, tier: 'http' }).verdict, 'missing work');
  assert.equal(checkWork(excepted, answers, work({ rows_read: db(0), Com_select: server(0) }), { ...alone, tier: 'native' }).verdict, 'missing work');
});

test('a server-wide counter proves nothing when another load shared the server; the database’s own still do', () => {
  const answers = { byId: { requests: 100, errors: 0 } };
  const shared = { ...alone, sharedServer: true };
  const v = checkWork(model, answers, work({ rows_read: db(100), rows_changed: db(0), Com_select: server(0) }), shared);
  assert.equal(v.verdict, 'checked');
  assert.match(v.reasons.join(), /Com_select: server-wide, and another load shared the server/);
  const onlyServer = checkWork(
    { ...model, requestTypes: { byId: { counters: { Com_select: { min: 1, why: 't' } } } } },
    answers,
    work({ Com_select: server(0) }),
    shared,
  );
  assert.equal(onlyServer.verdict, 'not checkable');
});

test("a trailing counter's lag widens the allowance by its share of the window; as long as the window, it is not checkable", () => {
  const answers = { byId: { requests: 1_000, errors: 0 } };
  const rows = (value: number, seconds: number) =>
    checkWork(model, answers, work({ rows_read: db(value, 1_000), rows_changed: db(0), Com_select: server(1_000) }, { seconds }), alone).counters.find(
      (c) => c.counter === 'rows_read',
    )?.status;
  assert.equal(rows(600, 2), 'ok');
  assert.equal(rows(600, 20), 'missing');
  assert.equal(rows(600, 1), 'not checkable');
  // Readings 1 s inside the window's ends (none outside it) widen the minimum's allowance as much;
  // readings that enclose it lack none of its work, and widen only the maximum's.
  const edges = (value: number, edgeSeconds: number, enclosing = false) =>
    checkWork(model, answers, work({ rows_read: db(value), rows_changed: db(0), Com_select: server(1_000) }, { seconds: 10, edgeSeconds, enclosing }), alone)
      .verdict;
  assert.equal(edges(880, 1), 'checked');
  assert.equal(edges(880, 0), 'missing work');
  assert.equal(edges(880, 1, true), 'missing work');
  assert.equal(edges(1_000, 1, true), 'checked');
});

test('not checkable: another engine, no answers, a counter the engine lacks; an unmodelled request type keeps the lower bounds', () => {
  const answers = { byId: { requests: 100, errors: 0 } };
  assert.deepEqual(checkWork(model, answers, work({}, { engine: 'MySQL' }), alone).reasons, ["the model counts MariaDB's counters; the database was MySQL"]);
  assert.equal(checkWork(model, { byId: { requests: 0, errors: 0 } }, work({}), alone).verdict, 'not checkable');
  const lacking = checkWork(model, answers, work({ Com_select: server(100) }, { unavailable: { rows_read: 'userstat is off' } }), alone);
  assert.equal(lacking.verdict, 'checked');
  assert.match(lacking.reasons.join('; '), /rows_read: userstat is off/);
  const mixed = checkWork(
    model,
    { ...answers, other: { requests: 50, errors: 0 } },
    work({ rows_read: db(50), rows_changed: db(0), Com_select: server(150) }),
    alone,
  );
  assert.equal(mixed.verdict, 'missing work', 'the modelled answers still need their rows');
  assert.equal(mixed.counters.find((c) => c.counter === 'Com_select')?.max, undefined, 'no maximum for answers without a model');
  assert.match(mixed.reasons.join(), /rows_read/);
});

test("a bound that names the case's parameter; a parameter the case lacks is an error", () => {
  const answers = { page: { requests: 10, errors: 0 } };
  assert.equal(checkWork(model, answers, work({ rows_read: db(1_010), Com_select: server(10) }), { ...alone, parameters: { rows: 100 } }).verdict, 'checked');
  assert.equal(
    checkWork(model, answers, work({ rows_read: db(510), Com_select: server(10) }), { ...alone, parameters: { rows: 100 } }).verdict,
    'missing work',
  );
  assert.throws(() => checkWork(model, answers, work({ rows_read: db(1), Com_select: server(10) }), { ...alone, parameters: {} }), /parameter rows/);
});

test("the loader: no file is no model; a minimum above the maximum, a counter the engine's reader lacks and the schema's breaches are refused", async () => {
  const dir = await mkdtemp(join(tmpdir(), 'work-model-'));
  try {
    assert.equal(await loadWorkModel({ dir }), null);
    await mkdir(join(dir, 'bench'));
    const write = (yaml: string) => writeFile(join(dir, 'bench', 'work.yaml'), yaml);
    await write('engine: MariaDB\ntolerance: 0.02\nrequestTypes:\n  a:\n    counters:\n      Com_select: { min: 2, max: 1, why: x }\n');
    await assert.rejects(loadWorkModel({ dir }), /a Com_select: min is above max/);
    await write('engine: MariaDB\ntolerance: 0.02\nrequestTypes:\n  a:\n    counters:\n      Com_select: { min: 1 }\n');
    await assert.rejects(loadWorkModel({ dir }), /must have required property 'why'/);
    await write('engine: PostgreSQL\ntolerance: 0.02\nrequestTypes:\n  a:\n    counters:\n      tup_read: { min: 1, why: x }\n');
    await assert.rejects(loadWorkModel({ dir }), /PostgreSQL's reader gives no counter tup_read/);
  } finally {
    await rm(dir, { recursive: true });
  }
});
