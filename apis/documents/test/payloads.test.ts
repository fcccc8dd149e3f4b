// The documents payload generator: deterministic, exactly the spec's shapes (checked against
// spec/openapi.yaml's own DocumentsInput schema), and different seeds give different data.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { parse } from 'yaml';
import { repoRoot } from '@fairbench/harness/paths.ts';
import { generateDocuments, seedObjectId } from '../dataset/generate.ts';
import { CONFORMANCE_SCALE } from '../dataset/model.ts';
import { ALPHANUMERIC, KINDS, PRINTABLE_ASCII, documentBody, payload } from '../dataset/payloads.js';

async function specValidator(schemaName: string) {
  const spec = parse(await readFile(join(repoRoot, 'spec', 'openapi.yaml'), 'utf8')) as { components: { schemas: Record<string, unknown> } };
  // The spec's components as one schema document, so its internal $refs resolve.
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  ajv.addSchema({ $id: 'https://fairbench.invalid/openapi', components: spec.components });
  return ajv.compile({ $ref: `https://fairbench.invalid/openapi#/components/schemas/${schemaName}` });
}

test('every kind, with either alphabet, is a valid DocumentsInput (spec/openapi.yaml)', async () => {
  const validate = await specValidator('DocumentsInput');
  for (const kind of KINDS) {
    for (const alphabet of [ALPHANUMERIC, PRINTABLE_ASCII]) {
      for (const seed of [0, 1, 4294967295]) {
        assert.ok(validate(documentBody(kind, seed, alphabet)), `${kind}/${seed}: ${JSON.stringify(validate.errors?.slice(0, 3))}`);
      }
    }
  }
});

test('the spec rejects a payload one size off and a payload of another kind', async () => {
  const validate = await specValidator('DocumentsInput');
  const list = payload('list', 1);
  const record = payload('record', 1);
  const table = payload('table', 1);
  const bad = [
    { kind: 'text', payload: payload('text', 1).slice(1) },
    { kind: 'list', payload: list.slice(1) },
    { kind: 'list', payload: [...list.slice(1), `${list[0]}x`] },
    { kind: 'record', payload: { ...record, extra_attribute: 'x'.repeat(100) } },
    { kind: 'record', payload: { ...Object.fromEntries(Object.entries(record).slice(1)), 'a.b': 'x'.repeat(100) } },
    { kind: 'table', payload: [...table.slice(1), { ...table[0], more: 'x'.repeat(50) }] },
    { kind: 'table', payload: payload('list', 1) },
    { kind: 'text', payload: payload('text', 1), id: seedObjectId(1, 0) },
    { kind: 'text', payload: `${payload('text', 1).slice(1)}é` },
  ];
  for (const body of bad) assert.equal(validate(body), false, JSON.stringify(body).slice(0, 120));
});

test('payloads are deterministic per (kind, seed) and differ between seeds and kinds', () => {
  for (const kind of KINDS) {
    assert.deepEqual(payload(kind, 7), payload(kind, 7));
    assert.notDeepEqual(payload(kind, 7), payload(kind, 8));
  }
  assert.notEqual(payload('text', 3), payload('list', 3)[0]!.padEnd(1000, '?'));
  // Record attribute names of two seeds are disjoint, so a merging replace would be visible.
  const a = Object.keys(payload('record', 1));
  const b = new Set(Object.keys(payload('record', 2)));
  assert.equal(a.filter((k) => b.has(k)).length, 0);
  assert.throws(() => payload('blob' as never, 1), /unknown document kind "blob"/);
});

test('the seeded collection: kinds round-robin, fixed distinct ObjectIds, valid payloads', async () => {
  const validate = await specValidator('DocumentsDocument');
  const data = generateDocuments(CONFORMANCE_SCALE);
  assert.equal(data.documents.length, CONFORMANCE_SCALE.perKind * 4);
  assert.deepEqual(
    data.documents.slice(0, 4).map((d) => d.kind),
    ['text', 'list', 'record', 'table'],
  );
  assert.equal(new Set(data.documents.map((d) => d.id)).size, data.documents.length);
  for (const d of data.documents) assert.ok(validate(d), JSON.stringify(validate.errors?.slice(0, 3)));
  assert.deepEqual(generateDocuments(CONFORMANCE_SCALE), data);
  assert.throws(() => generateDocuments({ seed: 1, perKind: 0 }), /perKind/);
});
