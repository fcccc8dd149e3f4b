// HTTP behaviour of the users routes without a database: an in-memory data
// layer with the interface of src/data/users.js stands in (the real one runs
// against FerretDB in the conformance suite: make conformance API=users).
import { createHmac } from 'node:crypto';
import { after, before, beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import bcrypt from 'bcrypt';
import jwt from 'jsonwebtoken';
import { buildApp } from '../src/app.js';
import { UsernameTaken } from '../src/data/users.js';

const SECRET = 'unit-test-secret';
const ALICE = '60b578809f2a2a8b5e000001';
const BOB = '60b578809f2a2a8b5e000002';
const ADMIN = '60b578809f2a2a8b5e00000a';

function memoryData() {
  const users = new Map();
  const add = (id, username, role, password) =>
    users.set(id, { user: { id, name: username, surname: 'S', username, role }, hash: bcrypt.hashSync(password, 4) });
  add(ALICE, 'alice', 'user', 'alice-pw');
  add(BOB, 'bob', 'user', 'bob-pw');
  add(ADMIN, 'admin', 'admin', 'admin-pw');
  let next = 0x100;
  return {
    users,
    async list(limit) { return [...users.keys()].sort().slice(0, limit).map((id) => users.get(id).user); },
    async byId(id) { return users.get(id)?.user ?? null; },
    async credentials(username) { return [...users.values()].find((u) => u.user.username === username) ?? null; },
    async create({ name, surname, username, password, email, role }) {
      if ([...users.values()].some((u) => u.user.username === username)) throw new UsernameTaken(username);
      const id = `70b578809f2a2a8b5e${(next++).toString(16).padStart(6, '0')}`;
      const user = { id, name, surname, username, role, ...(email ? { email } : {}) };
      users.set(id, { user, hash: await bcrypt.hash(password, 4) });
      return user;
    },
    async update(id, changes) {
      const entry = users.get(id);
      if (!entry) return null;
      Object.assign(entry.user, changes);
      return entry.user;
    },
    async remove(id) { return users.delete(id); },
  };
}

let data;
let server;
let base;
before(async () => {
  data = memoryData();
  server = buildApp({ users: { data: new Proxy({}, { get: (_, k) => data[k] }), jwt: { secret: SECRET, lifetimeSeconds: 3600 } } }).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  base = `http://127.0.0.1:${server.address().port}`;
});
beforeEach(() => {
  data = memoryData();
});
after(() => server.close());

const token = (sub, opts = {}) => jwt.sign({ role: 'user' }, opts.secret ?? SECRET, { algorithm: 'HS256', subject: sub, expiresIn: opts.expiresIn ?? 60 });
const call = (method, path, { body, auth, type = 'application/json' } = {}) =>
  fetch(base + path, {
    method,
    headers: { ...(body !== undefined ? { 'content-type': type } : {}), ...(auth ? { authorization: `Bearer ${auth}` } : {}) },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });

async function expectProblem(res, status, type) {
  assert.equal(res.status, status);
  assert.match(res.headers.get('content-type'), /^application\/problem\+json/);
  assert.equal((await res.json()).type, `urn:fairbench:problem:${type}`);
}

test('every users response carries Server-Timing app;dur=<ms with 3 decimals>, also errors', async () => {
  for (const res of [await call('GET', '/users'), await call('GET', '/users/abc'), await call('GET', '/me'), await call('POST', '/users', { body: '{' })]) {
    assert.match(res.headers.get('server-timing') ?? '', /^app;dur=\d+\.\d{3}$/);
  }
});

test('login issues an HS256 token with sub, role, iat, exp = iat + lifetime; wrong password and unknown user get the same 401', async () => {
  const res = await call('POST', '/auth/login', { body: { username: 'alice', password: 'alice-pw' } });
  assert.equal(res.status, 200);
  const body = await res.json();
  assert.deepEqual([body.tokenType, body.expiresIn], ['Bearer', 3600]);
  const decoded = jwt.verify(body.token, SECRET, { algorithms: ['HS256'], complete: true });
  assert.equal(decoded.header.alg, 'HS256');
  assert.equal(decoded.payload.sub, ALICE);
  assert.equal(decoded.payload.role, 'user');
  assert.equal(decoded.payload.exp - decoded.payload.iat, 3600);

  const wrong = await call('POST', '/auth/login', { body: { username: 'alice', password: 'nope-nope' } });
  const unknown = await call('POST', '/auth/login', { body: { username: 'nobody', password: 'nope-nope' } });
  assert.equal(wrong.status, 401);
  assert.equal(wrong.headers.get('www-authenticate'), 'Bearer');
  assert.deepEqual(await wrong.json(), await unknown.json());
});

test('tokens: signature, algorithm, expiry, subject and existence are all checked', async () => {
  assert.equal((await call('GET', '/me', { auth: token(ALICE) })).status, 200);
  const refused = [
    token(ALICE, { secret: 'other' }),
    token(ALICE, { expiresIn: -10 }),
    jwt.sign({ role: 'user', sub: ALICE }, null, { algorithm: 'none' }),
    jwt.sign({ role: 'user', sub: ALICE }, SECRET, { algorithm: 'HS512' }),
    jwt.sign({ role: 'user', sub: ALICE }, SECRET, { algorithm: 'HS256' }), // no exp
    token('not-an-id'),
    token('60b578809f2a2a8b5e0000ff'), // no such user
    'not.a.token',
    token(`${ALICE}\n`),
    // Date claims are NumericDates, numbers (issue 51); jwt.sign refuses to write them as strings.
    ...[{ exp: '4102444800' }, { nbf: '1000000000' }, { iat: '1000000000' }].map((dates) => signedAsIs({ sub: ALICE, role: 'user', iat: now(), exp: now() + 60, ...dates })),
  ];
  for (const t of refused) await expectProblem(await call('GET', '/me', { auth: t }), 401, 'unauthorized');
});

const now = () => Math.floor(Date.now() / 1000);

/** An HS256 token of exactly these claims, signed with the server's secret. */
function signedAsIs(claims) {
  const part = (value) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const unsigned = `${part({ alg: 'HS256', typ: 'JWT' })}.${part(claims)}`;
  return `${unsigned}.${createHmac('sha256', SECRET).update(unsigned).digest('base64url')}`;
}

test('registration: 201 with Location, role user; role and other unknown members are a 400; a taken username a 409', async () => {
  const res = await call('POST', '/users', { body: { name: 'Ada', surname: 'L', username: 'ada', password: 'secret1' } });
  assert.equal(res.status, 201);
  const user = await res.json();
  assert.equal(res.headers.get('location'), `/users/${user.id}`);
  assert.deepEqual(user, { id: user.id, name: 'Ada', surname: 'L', username: 'ada', role: 'user' });
  await expectProblem(await call('POST', '/users', { body: { name: 'M', surname: 'E', username: 'mallory', password: 'secret1', role: 'admin' } }), 400, 'invalid-body');
  await expectProblem(await call('POST', '/users', { body: { name: 'A', surname: 'L', username: 'ada', password: 'secret1' } }), 409, 'conflict');
  await expectProblem(await call('POST', '/users', { body: { name: 'A', surname: 'L', username: 'ada2', password: '12345' } }), 400, 'invalid-body');
  await expectProblem(await call('POST', '/users', { body: 'name=x', type: 'text/plain' }), 415, 'unsupported-media-type');
  await expectProblem(await call('POST', '/users', { body: JSON.stringify({ x: 'x'.repeat(70_000) }) }), 413, 'payload-too-large');
});

test('a password is limited to 72 UTF-8 bytes (what bcrypt reads), not 72 characters', async () => {
  // 36 × é = 72 bytes: accepted, and it logs in; 37 × é = 74 bytes (37 characters): refused, at login too.
  const res = await call('POST', '/users', { body: { name: 'E', surname: 'E', username: 'eacute', password: 'é'.repeat(36) } });
  assert.equal(res.status, 201);
  assert.equal((await call('POST', '/auth/login', { body: { username: 'eacute', password: 'é'.repeat(36) } })).status, 200);
  await expectProblem(await call('POST', '/users', { body: { name: 'E', surname: 'E', username: 'eacute2', password: 'é'.repeat(37) } }), 400, 'invalid-body');
  await expectProblem(await call('POST', '/auth/login', { body: { username: 'eacute', password: `${'é'.repeat(36)}tail` } }), 400, 'invalid-body');
});

test('update and delete: the user themself or an admin; 401, then 400 id, then 403, then body, then 404', async () => {
  await expectProblem(await call('PUT', `/users/${BOB}`, { body: { name: 'X' } }), 401, 'unauthorized');
  await expectProblem(await call('PUT', '/users/abc', { body: { name: 'X' }, auth: token(ALICE) }), 400, 'invalid-parameter');
  await expectProblem(await call('PUT', `/users/${BOB}`, { body: { role: 'admin' }, auth: token(ALICE) }), 403, 'forbidden');
  await expectProblem(await call('PUT', `/users/${ALICE}`, { body: { role: 'admin' }, auth: token(ALICE) }), 400, 'invalid-body');
  const self = await call('PUT', `/users/${ALICE}`, { body: { surname: 'Byron' }, auth: token(ALICE) });
  assert.equal((await self.json()).surname, 'Byron');
  assert.equal((await call('PUT', `/users/${BOB}`, { body: { name: 'Robert' }, auth: token(ADMIN) })).status, 200);
  await expectProblem(await call('PUT', '/users/60b578809f2a2a8b5e0000ff', { body: { name: 'X' }, auth: token(ADMIN) }), 404, 'not-found');

  await expectProblem(await call('DELETE', `/users/${BOB}`, { auth: token(ALICE) }), 403, 'forbidden');
  assert.equal((await call('DELETE', `/users/${BOB}`, { auth: token(ADMIN) })).status, 204);
  assert.equal((await call('DELETE', `/users/${ALICE}`, { auth: token(ALICE) })).status, 204);
  // Alice is gone: her still-valid token is refused.
  await expectProblem(await call('GET', '/me', { auth: token(ALICE) }), 401, 'unauthorized');
});

test('the admin read: 401 without a token, 403 for a user (whatever the token claims), 200 for an admin', async () => {
  await expectProblem(await call('GET', '/admin/users'), 401, 'unauthorized');
  await expectProblem(await call('GET', '/admin/users', { auth: jwt.sign({ role: 'admin' }, SECRET, { subject: ALICE, expiresIn: 60 }) }), 403, 'forbidden');
  const res = await call('GET', '/admin/users?limit=2', { auth: token(ADMIN) });
  assert.deepEqual((await res.json()).map((u) => u.id), [ALICE, BOB]);
});

test('limit: default 100, 1..100 in canonical form, anything else a 400', async () => {
  assert.equal((await (await call('GET', '/users')).json()).length, 3);
  assert.equal((await (await call('GET', '/users?limit=1')).json()).length, 1);
  for (const bad of ['0', '101', '01', 'abc', '', '1&limit=2']) await expectProblem(await call('GET', `/users?limit=${bad}`), 400, 'invalid-parameter');
});
