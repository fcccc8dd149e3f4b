// FerretDB's SQLite backend narrows a filter on one field other than _id in SQL (a login's
// {username}), instead of decoding every row in Go (scripts/patches/…-field-pushdown.patch).
// The SQL selects a superset and FerretDB's own filter decides, so the answers must be
// MongoDB's: arrays holding the value, escaped characters, ObjectIds, dotted paths, operators.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { MongoClient, ObjectId, type Filter } from 'mongodb';
import { runCleanup } from '../../src/cleanup.ts';
import { localProvider } from '../../src/provision/local/index.ts';

after(() => runCleanup());

interface Doc {
  _id: number;
  [field: string]: unknown;
}

const oid = new ObjectId();
const escaped = 'José 🎉 "q" \\ <b>&\u2028';
const DOCS: Doc[] = [
  { _id: 1, f: 'x' },
  { _id: 2, f: ['a', 'x'] },
  { _id: 3, g: 'x' },
  { _id: 4, f: { x: 'x' } },
  { _id: 5, f: 'X' },
  { _id: 6, f: escaped },
  { _id: 7, f: oid },
  { _id: 8, f: [oid] },
  { _id: 9, f: oid.toHexString() },
  { _id: 10, a: { b: 'x' } },
  { _id: 11, a: [{ b: 'y' }, { b: 'x' }] },
  { _id: 12, x: 1 },
];
const ALL = DOCS.map((d) => d._id);

/** Each filter with the _ids MongoDB answers. */
const CASES: [Filter<Doc>, number[]][] = [
  [{ f: 'x' }, [1, 2]],
  [{ f: escaped }, [6]],
  [{ f: oid }, [7, 8]],
  [{ f: oid.toHexString() }, [9]],
  [{ 'a.b': 'x' }, [10, 11]],
  [{ x: 'x' }, []],
  [{ f: 'string' }, []], // a word of every stored document's type schema
  [{ $comment: 'x' }, ALL], // an operator, not a field: matches every document
  [{ f: { $eq: 'x' } }, [1, 2]],
];

test('FerretDB pushes a filter on one field down to SQLite and still answers as MongoDB does', async (t) => {
  const server = await localProvider.start('mongo');
  const client = new MongoClient(server.url, { directConnection: true });
  try {
    await client.connect();
    const collection = client.db().collection<Doc>('pushdown');
    await collection.insertMany(DOCS);

    await t.test('explain says the filter {username: …} is pushed down', async () => {
      const explained = await collection.find({ username: 'someone' }).explain();
      assert.equal(explained['filterPushdown'], true, JSON.stringify(explained));
    });

    await t.test('finds, updates and deletes exactly what MongoDB would', async () => {
      for (const [filter, ids] of CASES) {
        const found = (await collection.find(filter).toArray()).map((d) => d._id).sort((a, b) => a - b);
        assert.deepEqual(found, ids, `find(${JSON.stringify(filter)})`);
      }
      assert.equal((await collection.updateMany({ f: 'x' }, { $set: { u: 1 } })).modifiedCount, 2);
      assert.equal((await collection.deleteMany({ f: oid })).deletedCount, 2);
      const left = await collection.find({}, { sort: { _id: 1 } }).toArray();
      assert.deepEqual(
        left.map((d) => d._id),
        ALL.filter((id) => id !== 7 && id !== 8),
      );
      assert.deepEqual(
        left.filter((d) => d['u'] === 1).map((d) => d._id),
        [1, 2],
      );
    });
  } finally {
    await client.close();
    await server.stop();
  }
});
