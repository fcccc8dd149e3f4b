// The users benchmark's contract (make pact): the paper's four flows as bench/k6.js sends
// them — register a fresh user, log in (the flow's user, and the admin once in setup), list
// 100 users with and without the admin's token, read the user and /me, update and delete it
// with its own or the admin's token — and what it reads: each status, the username (or name)
// it looks for, the 100 usernames it counts, the id and token it carries to the next step,
// and Server-Timing. Tokens are the implementation's own: provider states forge them with its
// secret and Pact puts them in the Authorization headers (fromProviderState).
import bcrypt from 'bcrypt';
import { MongoClient, ObjectId } from 'mongodb';
import { SignJWT } from 'jose';
import { MatchersV3 as M, type V3Interaction } from '@pact-foundation/pact';
import { databaseUrl } from '@fairbench/harness/api/dataset.ts';
import type { ConsumerRun, PactModule, StateContext } from '@fairbench/pact/module.ts';
import { USERS_COLLECTION } from '../dataset/load.ts';

// k6.js: usernames are b<RUN>m<iteration>; with RUN=pact and one arrival, bpactm0.
const RUN = 'pact';
const USER = { id: '5f00000000000000000000a1', username: `b${RUN}m0`, password: 'bench-password-1' };
const ADMIN = { id: '5f00000000000000000000a2', username: 'pactadmin', password: 'pact-admin-password' };
const LIMIT = 100;

const NO_USER = 'no user has the username';
const USER_EXISTS = 'a user exists';
const ADMIN_EXISTS = 'an admin exists';
const HUNDRED = '100 users or more exist';

const timing = { 'Server-Timing': M.regex('^app;dur=[0-9]+(\\.[0-9]+)?$', 'app;dur=0.250') };
const json = { 'Content-Type': 'application/json' };
const EXAMPLE_TOKEN = { user: 'eyJ.user.token', admin: 'eyJ.admin.token' };
const bearer = (who: 'user' | 'admin') => ({ Authorization: M.fromProviderState(`Bearer \${${who}Token}`, `Bearer ${EXAMPLE_TOKEN[who]}`) });
const userState = { description: USER_EXISTS, parameters: USER };
const adminState = { description: ADMIN_EXISTS, parameters: ADMIN };
const userPath = `/users/${USER.id}`;
const hundred = M.constrainedArrayLike({ username: M.string('ada') }, LIMIT, LIMIT);

const interactions: V3Interaction[] = [
  {
    states: [{ description: NO_USER, parameters: { username: USER.username } }],
    uponReceiving: 'registerUser',
    withRequest: { method: 'POST', path: '/users', headers: json, body: { name: 'Bench', surname: 'User', username: USER.username, password: USER.password } },
    willRespondWith: { status: 201, headers: timing, body: { id: M.regex('^[0-9a-f]{24}$', USER.id), username: USER.username } },
  },
  {
    states: [userState],
    uponReceiving: 'login',
    withRequest: { method: 'POST', path: '/auth/login', headers: json, body: { username: USER.username, password: USER.password } },
    willRespondWith: { status: 200, headers: timing, body: { token: M.string(EXAMPLE_TOKEN.user) } },
  },
  {
    states: [adminState],
    uponReceiving: 'login as the admin (setup)',
    withRequest: { method: 'POST', path: '/auth/login', headers: json, body: { username: ADMIN.username, password: ADMIN.password } },
    willRespondWith: { status: 200, body: { token: M.string(EXAMPLE_TOKEN.admin) } },
  },
  {
    states: [{ description: HUNDRED }],
    uponReceiving: 'listUsers',
    withRequest: { method: 'GET', path: '/users', query: { limit: String(LIMIT) } },
    willRespondWith: { status: 200, headers: timing, body: hundred },
  },
  {
    states: [{ description: HUNDRED }, adminState],
    uponReceiving: 'adminListUsers',
    withRequest: { method: 'GET', path: '/admin/users', query: { limit: String(LIMIT) }, headers: bearer('admin') },
    willRespondWith: { status: 200, headers: timing, body: hundred },
  },
  {
    states: [userState],
    uponReceiving: 'getUser',
    withRequest: { method: 'GET', path: userPath },
    willRespondWith: { status: 200, headers: timing, body: { username: USER.username } },
  },
  {
    states: [userState],
    uponReceiving: 'getMe',
    withRequest: { method: 'GET', path: '/me', headers: bearer('user') },
    willRespondWith: { status: 200, headers: timing, body: { username: USER.username } },
  },
  ...(['user', 'admin'] as const).flatMap((who): V3Interaction[] => [
    {
      states: who === 'user' ? [userState] : [userState, adminState],
      uponReceiving: `updateUser with the ${who}'s token`,
      withRequest: { method: 'PUT', path: userPath, headers: { ...json, ...bearer(who) }, body: { name: 'Renamed', surname: 'Bench' } },
      willRespondWith: { status: 200, headers: timing, body: { name: 'Renamed' } },
    },
    {
      states: who === 'user' ? [userState] : [userState, adminState],
      uponReceiving: `deleteUser with the ${who}'s token`,
      withRequest: { method: 'DELETE', path: userPath, headers: bearer(who) },
      willRespondWith: { status: 204, headers: timing },
    },
  ]),
];

// The scenario's flows (bench/scenario.yaml), one arrival each (2 s: k6's shortest window is 1 s). Each has a mock server of its
// own: an update or delete with the user's token looks like one with the admin's to Pact.
const flow = (name: string, steps: string, admin: boolean, only: string[]): ConsumerRun => ({
  name,
  env: { STEPS: steps, USERS: 1, SECONDS: 2, DRAIN: 10, WARMUP: 0, RUN, ...(admin ? { ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password } : {}) },
  only,
});
const runs: ConsumerRun[] = [
  flow('post-delete', 'registerUser,deleteUser:admin', true, ['registerUser', 'login as the admin (setup)', "deleteUser with the admin's token"]),
  flow('register-login-delete', 'registerUser,login,deleteUser:self', false, ['registerUser', 'login', "deleteUser with the user's token"]),
  flow('post-put-delete', 'registerUser,updateUser:admin,deleteUser:admin', true, [
    'registerUser',
    'login as the admin (setup)',
    "updateUser with the admin's token",
    "deleteUser with the admin's token",
  ]),
  flow('all', 'registerUser,listUsers,getUser,login,getMe:self,adminListUsers:admin,updateUser:self,deleteUser:self', true, [
    'registerUser',
    'listUsers',
    'getUser',
    'login',
    'getMe',
    'login as the admin (setup)',
    'adminListUsers',
    "updateUser with the user's token",
    "deleteUser with the user's token",
  ]),
];

async function withUsers<T>(ctx: StateContext, f: (users: ReturnType<ReturnType<MongoClient['db']>['collection']>) => Promise<T>): Promise<T> {
  const client = new MongoClient(databaseUrl(ctx.databases, 'mongo'), { directConnection: true });
  try {
    await client.connect();
    return await f(client.db().collection(USERS_COLLECTION));
  } finally {
    await client.close();
  }
}

/** A token the implementation accepts: signed with its secret, as its own login would sign one. */
function token(ctx: StateContext, id: string, role: 'user' | 'admin'): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ sub: id, role, iat: now, exp: now + 600 })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .sign(new TextEncoder().encode(ctx.jwtSecret));
}

/** Writes the user as the seed stores one (bcrypt hash and its salt), replacing any of that id or username. */
async function putUser(ctx: StateContext, p: Readonly<Record<string, unknown>>, role: 'user' | 'admin'): Promise<void> {
  const hash = await bcrypt.hash(String(p.password), 10);
  await withUsers(ctx, async (users) => {
    await users.deleteMany({ $or: [{ _id: new ObjectId(String(p.id)) }, { username: String(p.username) }] });
    await users.insertOne({
      _id: new ObjectId(String(p.id)),
      name: 'Pact',
      surname: 'State',
      email: `${String(p.username)}@example.com`,
      username: String(p.username),
      password: hash,
      salt: hash.slice(0, 29),
      role,
    });
  });
}

const pactModule: PactModule = {
  interactions,
  runs,
  states: {
    [NO_USER]: (ctx, p) => withUsers(ctx, async (users) => void (await users.deleteMany({ username: String(p.username) }))),
    [USER_EXISTS]: async (ctx, p) => {
      await putUser(ctx, p, 'user');
      return { userToken: await token(ctx, String(p.id), 'user') };
    },
    [ADMIN_EXISTS]: async (ctx, p) => {
      await putUser(ctx, p, 'admin');
      return { adminToken: await token(ctx, String(p.id), 'admin') };
    },
    // The conformance seed has 150; checked, and topped up directly if it had fewer.
    [HUNDRED]: (ctx) =>
      withUsers(ctx, async (users) => {
        const n = await users.countDocuments();
        for (let i = n; i < LIMIT; i++)
          await users.insertOne({
            name: 'Pact',
            surname: 'State',
            email: `pact${i}@example.com`,
            username: `pact${i}`,
            password: 'x',
            salt: 'x',
            role: 'user',
          });
      }),
  },
};
export default pactModule;
