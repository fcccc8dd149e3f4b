// Loads the seeded documents into a real FerretDB and reads them back through the driver:
// what was generated is what is stored, byte for byte in JSON terms, and a second load
// replaces the collection instead of adding to it.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { MongoClient, ObjectId } from 'mongodb';
import { runCleanup } from '@fairbench/harness/cleanup.ts';
import { localProvider } from '@fairbench/harness/provision/local/index.ts';
import type { DatabaseServer } from '@fairbench/harness/provision/types.ts';
import { generateDocuments } from '../dataset/generate.ts';
import { loadDocuments } from '../dataset/load.ts';
import { COLLECTION, CONFORMANCE_SCALE } from '../dataset/model.ts';

let server: DatabaseServer;
before(async () => {
  server = await localProvider.start('mongo', { database: 'documents' });
});
after(() => runCleanup());

test('the conformance scale loads, twice, and reads back exactly', async (t) => {
  const data = generateDocuments(CONFORMANCE_SCALE);
  const first = await loadDocuments(server.url, data);
  const second = await loadDocuments(server.url, data);
  assert.deepEqual(second.rows, { documents: data.documents.length });
  const client = await MongoClient.connect(server.url);
  try {
    const stored = await client.db().collection(COLLECTION).find().sort({ _id: 1 }).toArray();
    assert.equal(stored.length, data.documents.length);
    stored.forEach((doc, i) => {
      const expected = data.documents[i]!;
      assert.ok(doc._id instanceof ObjectId);
      assert.equal(JSON.stringify({ id: doc._id.toHexString(), kind: doc['kind'], payload: doc['payload'] }), JSON.stringify(expected));
    });
  } finally {
    await client.close();
  }
  t.diagnostic(`${server.engine.name} ${server.engine.version}: load ${Math.round(first.milliseconds)} ms, reload ${Math.round(second.milliseconds)} ms`);
});
