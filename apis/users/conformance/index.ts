// The users fixtures for the flows: direct reads of the stored users, and the seed's
// named users ({{alice.id}}, {{admin.password}}) and the answers GET /users must give.
import { databaseUrl } from '@fairbench/harness/api/dataset.ts';
import type { ConformanceModule } from '@fairbench/conformance/api-module.ts';
import { MongoStore } from '@fairbench/conformance/stores/mongo.ts';
import { USERS_COLLECTION } from '../dataset/load.ts';
import type { SeedUser, UsersDataset } from '../dataset/model.ts';

/** What a client knows about a seeded user (credentials included), as {{alice.username}} etc. */
function client(u: SeedUser) {
  return { id: u.id, name: u.name, surname: u.surname, email: u.email, username: u.username, password: u.password, role: u.role, user: publicUser(u) };
}

/** The API's User for a seeded user: what every response must show, exactly. */
function publicUser(u: SeedUser) {
  return { id: u.id, name: u.name, surname: u.surname, username: u.username, role: u.role, email: u.email };
}

const usersConformance: ConformanceModule<UsersDataset, 'flows'> = {
  suites: ['flows'],
  async prepare(seeded, databases) {
    const store = await MongoStore.connect(databaseUrl(databases, 'mongo'), [USERS_COLLECTION]);
    const users = seeded.data.users;
    const firstAdmin = users.find((u) => u.role === 'admin')!;
    const variables = {
      // Two plain users and an admin; ids ascend in this order.
      alice: client(users[0]!),
      bob: client(users[1]!),
      carol: client(users[2]!),
      admin: client(firstAdmin),
      // The last admin sits past every list page (limit ≤ 100 of 150): a fuzzer that follows
      // list answers to DELETE /users/{id} never deletes it, so its token stays valid (api.yaml fuzz.auth).
      lastAdmin: client(users.findLast((u) => u.role === 'admin')!),
      // GET /users answers, exactly: the first 3 and the default page of 100.
      firstUsers3: users.slice(0, 3).map(publicUser),
      firstUsers100: users.slice(0, 100).map(publicUser),
      // An id no seeded user has (same shape, counter past the last seeded one).
      unknownId: `${users[0]!.id.slice(0, 18)}ffffff`,
    };
    return { store, fixtures: { flows: { records: store, variables } }, close: () => store.close() };
  },
};
export default usersConformance;
