// The users API over server.inject with an in-memory data layer standing in for
// src/data/users.js (the real one runs against FerretDB in the conformance suite): the
// @hapi/jwt strategy (forged, expired, alg none, unknown subject), the scopes (admin,
// themself), the joi schemas through the route options, and the problems.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import bcrypt from 'bcrypt';
import mongoose from 'mongoose';
import { createServer } from '../src/app.js';
import { UsernameTaken } from '../src/data/users.js';

const SECRET = 'unit-test-secret';
const JWT = { secret: SECRET, lifetimeSeconds: 120 };
const ALICE = { id: '5f0000000000000000000001', name: 'Alice', surname: 'A', username: 'alice', role: 'user', email: 'alice@example.com' };
const BOB = { id: '5f0000000000000000000002', name: 'Bob', surname: 'B', username: 'bob', role: 'user' };
const ADMIN = { id: '5f0000000000000000000003', name: 'Ada', surname: 'Admin', username: 'admin', role: 'admin' };
const UNKNOWN = '5f00000000000000000000ff';

function memoryUsers() {
  const users = new Map([ALICE, BOB, ADMIN].map((u) => [u.id, { ...u }]));
  const hashes = new Map([['alice', bcrypt.hashSync('alice-password', 4)]]);
  let next = 0x100;
  let failing = false;
  const check = () => { if (failing) throw new mongoose.mongo.MongoNetworkError('connection timed out'); };
  return {
    users,
    fail(on) { failing = on; },
    async list(limit) { check(); return [...users.values()].slice(0, limit); },
    async byId(id) { check(); return users.has(id) ? { ...users.get(id) } : null; },
    async credentials(username) {
      check();
      const user = [...users.values()].find((u) => u.username === username);
      return user ? { user, hash: hashes.get(username) ?? bcrypt.hashSync('x', 4) } : null;
    },
    async create({ password, ...user }) {
      check();
      if ([...users.values()].some((u) => u.username === user.username)) throw new UsernameTaken(user.username);
      const id = (next++).toString(16).padStart(24, '0');
      users.set(id, { id, ...user });
      hashes.set(user.username, await bcrypt.hash(password, 4));
      return { id, ...user };
    },
    async update(id, changes) { check(); if (!users.has(id)) return null; Object.assign(users.get(id), changes); return { ...users.get(id) }; },
    async remove(id) { check(); return users.delete(id); },
  };
}

const b64 = (value) => Buffer.from(JSON.stringify(value)).toString('base64url');
/** A token as an attacker or a client could make it: any header, claims and secret. */
function forge(claims, { secret = SECRET, alg = 'HS256' } = {}) {
  const now = Math.floor(Date.now() / 1000);
  const body = `${b64({ alg, typ: 'JWT' })}.${b64({ iat: now, exp: now + 60, ...claims })}`;
  if (alg === 'none') return `${body}.`;
  return `${body}.${createHmac('sha256', secret).update(body).digest('base64url')}`;
}
const as = (user, options) => ({ authorization: `Bearer ${forge({ sub: user.id, role: user.role }, options)}` });

let server;
let data;
before(async () => {
  data = memoryUsers();
  server = await createServer({ port: 0, host: '127.0.0.1', apis: { users: { data, jwt: JWT } } });
});
after(() => server.stop());

async function inject(method, url, { json, body, headers = {} } = {}) {
  const payload = json !== undefined ? JSON.stringify(json) : body;
  const res = await server.inject({ method, url, payload, headers: { ...(payload !== undefined ? { 'content-type': 'application/json' } : {}), ...headers } });
  assert.match(res.headers['server-timing'], /^app;dur=\d+\.\d{3}$/);
  return res;
}

function expectProblem(res, status, type) {
  assert.equal(res.statusCode, status, res.payload);
  assert.match(res.headers['content-type'], /^application\/problem\+json/);
  assert.deepEqual(Object.keys(JSON.parse(res.payload)).filter((k) => !['type', 'title', 'status', 'detail'].includes(k)), []);
  assert.equal(JSON.parse(res.payload).type, `urn:fairbench:problem:${type}`);
  if (status === 401) assert.equal(res.headers['www-authenticate'], 'Bearer');
}

test('register (role user, Location), log in, read /me with the issued token', async () => {
  const created = await inject('POST', '/users', { json: { name: 'Grace', surname: 'Hopper', username: 'grace', password: 'cobol-1959' } });
  assert.equal(created.statusCode, 201, created.payload);
  const user = JSON.parse(created.payload);
  assert.deepEqual(user, { id: user.id, name: 'Grace', surname: 'Hopper', username: 'grace', role: 'user' });
  assert.equal(created.headers.location, `/users/${user.id}`);
  const login = await inject('POST', '/auth/login', { json: { username: 'grace', password: 'cobol-1959' } });
  assert.equal(login.statusCode, 200, login.payload);
  const { token, tokenType, expiresIn } = JSON.parse(login.payload);
  assert.deepEqual({ tokenType, expiresIn }, { tokenType: 'Bearer', expiresIn: 120 });
  const claims = JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString());
  assert.deepEqual({ sub: claims.sub, role: claims.role, lifetime: claims.exp - claims.iat }, { sub: user.id, role: 'user', lifetime: 120 });
  assert.equal(JSON.parse(Buffer.from(token.split('.')[0], 'base64url').toString()).alg, 'HS256');
  const me = await inject('GET', '/me', { headers: { authorization: `Bearer ${token}` } });
  assert.deepEqual(JSON.parse(me.payload), user);
  expectProblem(await inject('POST', '/users', { json: { name: 'G', surname: 'H', username: 'grace', password: 'another' } }), 409, 'conflict');
});

test('login: a wrong password and an unknown user get the same 401', async () => {
  const wrong = await inject('POST', '/auth/login', { json: { username: 'alice', password: 'not-hers' } });
  const unknown = await inject('POST', '/auth/login', { json: { username: 'nobody', password: 'not-hers' } });
  expectProblem(wrong, 401, 'unauthorized');
  assert.equal(unknown.payload, wrong.payload);
  expectProblem(await inject('POST', '/auth/login', { json: { username: 'alice', password: 'é'.repeat(37) } }), 400, 'invalid-body');
});

test('the strategy refuses every token but a well-signed, unexpired HS256 one of a stored user', async () => {
  assert.equal((await inject('GET', '/me', { headers: as(ALICE) })).statusCode, 200);
  const now = Math.floor(Date.now() / 1000);
  const refused = [
    undefined,
    'Bearer',
    'Bearer not.a.token',
    'Basic YWxpY2U6c2VjcmV0',
    `Bearer ${forge({ sub: ALICE.id }, { secret: 'wrong' })}`,
    `Bearer ${forge({ sub: ALICE.id }, { alg: 'none' })}`,
    `Bearer ${forge({ sub: ALICE.id, exp: now - 60 })}`,
    `Bearer ${forge({ sub: ALICE.id, exp: undefined })}`,
    `Bearer ${forge({ sub: ALICE.id, exp: String(now + 60) })}`,
    `Bearer ${forge({ sub: UNKNOWN })}`,
    `Bearer ${forge({ sub: 'aaaaaaaaaaaa' })}`,
    `Bearer ${forge({})}`,
  ];
  for (const authorization of refused) expectProblem(await inject('GET', '/me', { headers: authorization ? { authorization } : {} }), 401, 'unauthorized');
});

test('scopes: the stored role decides the admin read; a user may change only themself', async () => {
  expectProblem(await inject('GET', '/admin/users', { headers: as({ ...ALICE, role: 'admin' }) }), 403, 'forbidden');
  expectProblem(await inject('GET', '/admin/users'), 401, 'unauthorized');
  const list = await inject('GET', '/admin/users?limit=2', { headers: as(ADMIN) });
  assert.deepEqual(JSON.parse(list.payload).map((u) => u.id), [ALICE.id, BOB.id]);
  expectProblem(await inject('GET', '/admin/users?limit=0', { headers: as(ADMIN) }), 400, 'invalid-parameter');

  expectProblem(await inject('PUT', `/users/${BOB.id}`, { json: { name: 'Hacked' }, headers: as({ ...ALICE, role: 'admin' }) }), 403, 'forbidden');
  expectProblem(await inject('DELETE', `/users/${BOB.id}`, { headers: as(ALICE) }), 403, 'forbidden');
  assert.equal(data.users.get(BOB.id).name, 'Bob');
  const own = await inject('PUT', `/users/${ALICE.id}`, { json: { surname: 'Byron' }, headers: as(ALICE) });
  assert.deepEqual(JSON.parse(own.payload), { ...ALICE, surname: 'Byron' });
  const byAdmin = await inject('PUT', `/users/${BOB.id}`, { json: { name: 'Robert' }, headers: as(ADMIN) });
  assert.equal(JSON.parse(byAdmin.payload).name, 'Robert');
  expectProblem(await inject('PUT', `/users/${UNKNOWN}`, { json: { name: 'X' }, headers: as(ADMIN) }), 404, 'not-found');
  expectProblem(await inject('PUT', '/users/abc', { json: { name: 'X' }, headers: as(ADMIN) }), 400, 'invalid-parameter');
  expectProblem(await inject('PUT', `/users/${ALICE.id}`, { json: { name: 'X' } }), 401, 'unauthorized');
});

test('bodies: unknown members, wrong types and sizes are 400; JSON only; 64 KiB', async () => {
  const base = { name: 'N', surname: 'S', username: 'newuser', password: 'secret1' };
  for (const json of [{ ...base, role: 'admin' }, { ...base, role: 'user' }, { ...base, password: 12345678 }, { ...base, password: '12345' }, { ...base, email: 'a@' }, { ...base, username: 'no spaces' }, [], null, 'text']) {
    expectProblem(await inject('POST', '/users', { json }), 400, 'invalid-body');
  }
  expectProblem(await inject('POST', '/users', { body: '' }), 400, 'invalid-body');
  expectProblem(await inject('POST', '/users', { body: '{"name":' }), 400, 'malformed-body');
  expectProblem(await inject('POST', '/users', { body: JSON.stringify({ ...base, name: 'x'.repeat(65 * 1024) }) }), 413, 'payload-too-large');
  expectProblem(await inject('POST', '/users', { body: 'name=N', headers: { 'content-type': 'application/x-www-form-urlencoded' } }), 415, 'unsupported-media-type');
  expectProblem(await server.inject({ method: 'POST', url: '/users', payload: JSON.stringify(base) }), 415, 'unsupported-media-type');
  for (const json of [{ role: 'admin' }, { password: 'newpassword' }, {}, { name: '' }, { name: 5 }]) {
    expectProblem(await inject('PUT', `/users/${ALICE.id}`, { json, headers: as(ALICE) }), 400, 'invalid-body');
  }
  assert.equal(data.users.get(ALICE.id).role, 'user');
  assert.equal([...data.users.values()].some((u) => u.username === 'newuser'), false);
  const sixChars = await inject('POST', '/users', { json: { ...base, password: 'é'.repeat(36) } });
  assert.equal(sixChars.statusCode, 201, sixChars.payload);
});

test('reads, limits, ids, 405s', async () => {
  assert.equal(JSON.parse((await inject('GET', '/users?limit=1')).payload).length, 1);
  assert.equal(JSON.parse((await inject('GET', '/users?limit=100&other=x')).payload).length, data.users.size);
  for (const limit of ['0', '101', 'abc', '01', '', '1.5', '-1']) expectProblem(await inject('GET', `/users?limit=${limit}`), 400, 'invalid-parameter');
  expectProblem(await inject('GET', '/users?limit=1&limit=2'), 400, 'invalid-parameter');
  assert.equal(JSON.parse((await inject('GET', `/users/${ADMIN.id}`)).payload).username, 'admin');
  expectProblem(await inject('GET', `/users/${UNKNOWN}`), 404, 'not-found');
  for (const id of ['abc', 'aaaaaaaaaaaa', ADMIN.id.toUpperCase(), `${ADMIN.id}0`]) expectProblem(await inject('GET', `/users/${id}`), 400, 'invalid-parameter');
  for (const [method, path, allow] of [['PATCH', '/users', 'GET, HEAD, POST'], ['PATCH', `/users/${ALICE.id}`, 'GET, HEAD, PUT, DELETE'], ['GET', '/auth/login', 'POST'], ['POST', '/me', 'GET, HEAD'], ['DELETE', '/admin/users', 'GET, HEAD']]) {
    const res = await inject(method, path);
    expectProblem(res, 405, 'method-not-allowed');
    assert.equal(res.headers.allow, allow);
  }
});

test('a database that does not answer is a 503, also while the strategy loads the caller', async () => {
  data.fail(true);
  try {
    expectProblem(await inject('GET', '/users'), 503, 'unavailable');
    expectProblem(await inject('GET', '/me', { headers: as(ALICE) }), 503, 'unavailable');
    expectProblem(await inject('DELETE', `/users/${BOB.id}`, { headers: as(ADMIN) }), 503, 'unavailable');
  } finally {
    data.fail(false);
  }
});

test('a deleted user\'s token is refused afterwards', async () => {
  const created = JSON.parse((await inject('POST', '/users', { json: { name: 'T', surname: 'U', username: 'temp.user', password: 'temporary' } })).payload);
  const self = as(created);
  assert.equal((await inject('DELETE', `/users/${created.id}`, { headers: self })).statusCode, 204);
  expectProblem(await inject('GET', '/me', { headers: self }), 401, 'unauthorized');
  expectProblem(await inject('DELETE', `/users/${created.id}`, { headers: as(ADMIN) }), 404, 'not-found');
});
