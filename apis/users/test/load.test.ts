// Loads the conformance users into a real FerretDB, twice, and checks the stored
// documents (Table 1 fields, bcrypt hash in `password`) and the unique username index.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { MongoClient } from 'mongodb';
import { runCleanup } from '@fairbench/harness/cleanup.ts';
import { localProvider } from '@fairbench/harness/provision/local/index.ts';
import type { DatabaseServer } from '@fairbench/harness/provision/types.ts';
import { generateUsers } from '../dataset/generate.ts';
import { loadUsers, USERS_COLLECTION } from '../dataset/load.ts';
import { CONFORMANCE_SCALE } from '../dataset/model.ts';

let server: DatabaseServer;
before(async () => {
  server = await localProvider.start('mongo', { database: 'users_load' });
});
after(() => runCleanup());

test('the users load (twice: the second replaces the first), with a unique index on username', async (t) => {
  const data = await generateUsers(CONFORMANCE_SCALE);
  const first = await loadUsers(server.url, data);
  const second = await loadUsers(server.url, data);
  assert.deepEqual(second.rows, { users: CONFORMANCE_SCALE.users });
  t.diagnostic(`load ${CONFORMANCE_SCALE.users} users: ${Math.round(first.milliseconds)} ms, again ${Math.round(second.milliseconds)} ms`);

  const client = new MongoClient(server.url, { directConnection: true });
  try {
    const users = client.db().collection(USERS_COLLECTION);
    assert.equal(await users.countDocuments(), CONFORMANCE_SCALE.users);
    const alice = data.users[0]!;
    const stored = await users.findOne({ username: alice.username });
    assert.deepEqual(Object.keys(stored ?? {}).sort(), ['_id', 'email', 'name', 'password', 'role', 'salt', 'surname', 'username']);
    assert.equal(stored?._id.toHexString(), alice.id);
    assert.equal(stored?.['password'], alice.passwordHash);
    const index = (await users.indexes()).find((i) => i.name === 'username_1');
    assert.equal(index?.unique, true);
    await assert.rejects(users.insertOne({ username: alice.username, name: 'x' }), /E11000|duplicate key/);
    const page = await users
      .find({}, { projection: { _id: 1 } })
      .sort({ _id: 1 })
      .limit(3)
      .toArray();
    assert.deepEqual(
      page.map((d) => d._id.toHexString()),
      data.users.slice(0, 3).map((u) => u.id),
    );
  } finally {
    await client.close();
  }
});
