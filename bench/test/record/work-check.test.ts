// Proof of work: each API's work model loads against its schema and names counters its
// engine's reader gives.
import assert from 'node:assert/strict';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { loadApis } from '@fairbench/harness/api/manifest.ts';
import { loadWorkModel } from '../../src/plan/work-model.ts';

test('every API with a work model: it loads against the schema, and names request types with counters', async () => {
  const models = [];
  for (const api of await loadApis()) {
    const m = await loadWorkModel(api);
    if (m) models.push([api.manifest.name, m] as const);
  }
  const names = models.map(([n]) => n);
  for (const required of ['forum', 'sports']) assert.ok(names.includes(required), `apis/${required}/bench/work.yaml`);
  for (const [, m] of models) assert.ok(Object.keys(m.requestTypes).length > 0);
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
