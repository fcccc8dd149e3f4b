// The users API's part of the suite: what it needs (MongoDB), how it is seeded,
// the direct store, and the fixtures the flows name ({{alice.id}}, {{firstUsers}}).
import { fingerprintUsers } from '@fairbench/db/users/fingerprint.ts';
import { generateUsers } from '@fairbench/db/users/generate.ts';
import { loadUsers, USERS_COLLECTION } from '@fairbench/db/users/load-mongo.ts';
import { CONFORMANCE_SCALE, type SeedUser } from '@fairbench/db/users/model.ts';
import { MongoStore } from '../../stores/mongo.ts';
import type { ConformanceApi } from '../types.ts';

/** What a client knows about a seeded user (credentials included), as {{alice.username}} etc. */
function client(u: SeedUser) {
  return { id: u.id, name: u.name, surname: u.surname, email: u.email, username: u.username, password: u.password, role: u.role, user: publicUser(u) };
}

/** The API's User for a seeded user: what every response must show, exactly. */
function publicUser(u: SeedUser) {
  return { id: u.id, name: u.name, surname: u.surname, username: u.username, role: u.role, email: u.email };
}

export const users: ConformanceApi = {
  name: 'users',
  databases: ['mongo'],
  graphql: false,
  suites: ['flows'],
  async prepare(databases) {
    const mongoUrl = databases.get('mongo')!.url;
    const data = await generateUsers(CONFORMANCE_SCALE);
    const load = await loadUsers(mongoUrl, data);
    const store = await MongoStore.connect(mongoUrl, [USERS_COLLECTION]);
    const seeded = data.users;
    const firstAdmin = seeded.find((u) => u.role === 'admin')!;
    return {
      dataset: { name: 'users', scale: { ...CONFORMANCE_SCALE }, fingerprint: fingerprintUsers(data), rows: load.rows, loadMs: Math.round(load.milliseconds) },
      store,
      documents: store,
      variables: {
        // Two plain users and an admin; ids ascend in this order.
        alice: client(seeded[0]!),
        bob: client(seeded[1]!),
        carol: client(seeded[2]!),
        admin: client(firstAdmin),
        // GET /users answers, exactly: the first 3 and the default page of 100.
        firstUsers3: seeded.slice(0, 3).map(publicUser),
        firstUsers100: seeded.slice(0, 100).map(publicUser),
        // An id no seeded user has (same shape, counter past the last seeded one).
        unknownId: `${seeded[0]!.id.slice(0, 18)}ffffff`,
      },
      reset: async () => {
        await loadUsers(mongoUrl, data);
      },
      close: () => store.close(),
    };
  },
};
