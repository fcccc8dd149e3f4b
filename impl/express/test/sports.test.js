// The sports API without a database: handlers over a fake data layer (the order of checks,
// bodies, permissions, conflicts, the database's unavailability as a 503), the data module's
// SQL and error mapping over a fake pg pool, and node-postgres's errors classified (the real
// SQL runs against PostgreSQL in the conformance suite; the timeouts in make resilience).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import bcrypt from 'bcrypt';
import { buildApp } from '../src/app.js';
import { createSportsData, Overlap, Taken } from '../src/data/sports.js';
import { DB_TIMEOUT_MS, PG_TIMEOUTS } from '../src/db-timeouts.js';
import { databaseUnavailable } from '../src/db-unavailable.js';

const OWNER = { id: 1, username: 'owner1', name: 'Olga', surname: 'Owner', role: 'owner' };
const OTHER_OWNER = { id: 2, username: 'owner2', name: 'Otto', surname: 'Owner', role: 'owner' };
const USER = { id: 7, username: 'user1', name: 'Ugo', surname: 'User', role: 'user' };
const PASSWORD = 'serve-and-volley';
const FUTURE = '2098-06-15';

/** A data layer that records its calls; reservation 50 is USER's on OWNER's field, pending; field 13 is booked on FUTURE. */
function fakeData(hash) {
  const calls = [];
  const users = new Map([OWNER, OTHER_OWNER, USER].map((u) => [u.id, u]));
  const reservation = { id: 50, fieldId: 3, userId: USER.id, date: FUTURE, startHour: 10, endHour: 12, status: 'pending', ownerId: OWNER.id };
  const record = (name, f) => async (...args) => {
    calls.push(name);
    return f(...args);
  };
  return {
    calls,
    unavailable: false,
    userById: record('userById', async (id) => users.get(id) ?? null),
    credentials: record('credentials', async (username) => ([...users.values()].find((u) => u.username === username) ? { user: [...users.values()].find((u) => u.username === username), hash } : null)),
    createUser: record('createUser', async ({ username, name, surname }) => {
      if (username === USER.username) throw new Taken('taken');
      return { id: 99, username, name, surname, role: 'user' };
    }),
    facilities: record('facilities', async (paging) => ({ items: [], ...paging, total: 0 })),
    facilityById: record('facilityById', async (id) => (id === 1 ? { id: 1, name: 'Club', city: 'Napoli', address: 'Via 1', ownerId: OWNER.id } : null)),
    fieldsOf: record('fieldsOf', async () => []),
    createField: record('createField', async (facilityId, body) => ({ id: 19, facilityId, ...body })),
    fields: record('fields', async (paging, sport) => ({ items: [], ...paging, total: 0, sport })),
    fieldById: async (id) => {
      calls.push('fieldById');
      if (id === 500) throw new Error('Query read timeout');
      return id <= 18 ? { id, facilityId: 1, name: 'F', sport: 'tennis', pricePerHour: 20 } : null;
    },
    reservations: record('reservations', async (caller, paging) => ({ items: [], ...paging, total: 0 })),
    reservationById: record('reservationById', async (id) => (id === reservation.id ? { ...reservation } : null)),
    createReservation: record('createReservation', async (userId, body) => {
      if (body.fieldId === 13) throw new Overlap('overlap');
      return { id: 51, userId, ...body, status: 'pending' };
    }),
    decide: record('decide', async (id, status) => ({ ...reservation, status, ownerId: undefined })),
    ratingOf: record('ratingOf', async () => null),
    createRating: record('createRating', async (reservationId, body) => ({ reservationId, ...body })),
  };
}

let server;
let base;
let data;
before(async () => {
  data = fakeData(await bcrypt.hash(PASSWORD, 4));
  server = buildApp({ sports: { data, jwt: { secret: 'unit-test-secret', lifetimeSeconds: 60 } } }).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  base = `http://127.0.0.1:${server.address().port}`;
});
after(() => server.close());

async function call(method, path, { body, token, raw } = {}) {
  const headers = {};
  if (body !== undefined || raw !== undefined) headers['content-type'] = 'application/json';
  if (token !== undefined) headers.authorization = `Bearer ${token}`;
  return fetch(base + path, { method, headers, body: raw ?? (body === undefined ? undefined : JSON.stringify(body)) });
}

async function problem(res, status, type) {
  assert.equal(res.status, status);
  assert.match(res.headers.get('content-type'), /^application\/problem\+json/);
  assert.equal((await res.json()).type, `urn:fairbench:problem:${type}`);
}

async function login(username) {
  const res = await call('POST', '/sports/login', { body: { username, password: PASSWORD } });
  assert.equal(res.status, 200);
  const body = await res.json();
  assert.equal(body.tokenType, 'Bearer');
  assert.equal(body.expiresIn, 60);
  return body.token;
}

test('login: the stored hash decides; a wrong password and an unknown user are the same 401', async () => {
  assert.match(await login(USER.username), /^[\w-]+\.[\w-]+\.[\w-]+$/);
  await problem(await call('POST', '/sports/login', { body: { username: USER.username, password: 'wrong-password' } }), 401, 'unauthorized');
  await problem(await call('POST', '/sports/login', { body: { username: 'nobody', password: PASSWORD } }), 401, 'unauthorized');
  await problem(await call('POST', '/sports/login', { body: { username: USER.username } }), 400, 'invalid-body');
});

test('sign-up: 201 with Location, a taken username 409, an unknown member or a password over 72 UTF-8 bytes 400', async () => {
  const res = await call('POST', '/sports/users', { body: { username: 'new.player', password: PASSWORD, name: 'N', surname: 'P' } });
  assert.equal(res.status, 201);
  assert.equal(res.headers.get('location'), '/sports/users/99');
  assert.equal((await res.json()).role, 'user');
  await problem(await call('POST', '/sports/users', { body: { username: USER.username, password: PASSWORD, name: 'N', surname: 'P' } }), 409, 'conflict');
  await problem(await call('POST', '/sports/users', { body: { username: 'x.y', password: PASSWORD, name: 'N', surname: 'P', role: 'owner' } }), 400, 'invalid-body');
  // bcrypt reads 72 bytes: 39 é are 39 characters but 78 bytes.
  await problem(await call('POST', '/sports/users', { body: { username: 'x.y', password: 'é'.repeat(39), name: 'N', surname: 'P' } }), 400, 'invalid-body');
  await problem(await call('POST', '/sports/login', { body: { username: USER.username, password: 'é'.repeat(39) } }), 400, 'invalid-body');
});

test('every operation but login and sign-up needs a token of a stored user', async () => {
  await problem(await call('GET', '/sports/sports-fields'), 401, 'unauthorized');
  await problem(await call('GET', '/sports/sports-fields', { token: 'not.a.token' }), 401, 'unauthorized');
  const token = await login(USER.username);
  assert.equal((await call('GET', '/sports/sports-fields?sport=padel&page=2&size=5', { token })).status, 200);
  await problem(await call('GET', '/sports/sports-fields?sport=chess', { token }), 400, 'invalid-parameter');
  await problem(await call('GET', '/sports/sports-fields?size=101', { token }), 400, 'invalid-parameter');
  await problem(await call('GET', '/sports/sports-fields?page=01', { token }), 400, 'invalid-parameter');
});

test("adding a field: another owner's facility is a 403 before the body is read, and nothing is written", async () => {
  const other = await login(OTHER_OWNER.username);
  const before = data.calls.filter((c) => c === 'createField').length;
  await problem(await call('POST', '/sports/sports-facilities/1/sports-field', { token: other, raw: '{"name":' }), 403, 'forbidden');
  await problem(await call('POST', '/sports/sports-facilities/2/sports-field', { token: other, body: { name: 'A', sport: 'padel', pricePerHour: 20 } }), 404, 'not-found');
  const owner = await login(OWNER.username);
  await problem(await call('POST', '/sports/sports-facilities/1/sports-field', { token: owner, raw: '{"name":' }), 400, 'malformed-body');
  const res = await call('POST', '/sports/sports-facilities/1/sports-field', { token: owner, body: { name: 'Centre', sport: 'padel', pricePerHour: 20 } });
  assert.equal(res.status, 201);
  assert.equal(res.headers.get('location'), '/sports/sports-fields/19');
  assert.equal(data.calls.filter((c) => c === 'createField').length, before + 1);
});

test('reserving: users only, the booking rules, an unknown field 404, an overlap 409', async () => {
  await problem(await call('POST', '/sports/reservations', { token: await login(OWNER.username), body: { fieldId: 1, date: FUTURE, startHour: 10, endHour: 11 } }), 403, 'forbidden');
  const token = await login(USER.username);
  const res = await call('POST', '/sports/reservations', { token, body: { fieldId: 1, date: FUTURE, startHour: 6, endHour: 7 } });
  assert.equal(res.status, 201);
  assert.deepEqual(await res.json(), { id: 51, userId: USER.id, fieldId: 1, date: FUTURE, startHour: 6, endHour: 7, status: 'pending' });
  for (const body of [
    { fieldId: 1, date: '2020-01-01', startHour: 10, endHour: 11 },
    { fieldId: 1, date: '2098-02-30', startHour: 10, endHour: 11 },
    { fieldId: 1, date: FUTURE, startHour: 10, endHour: 10 },
    { fieldId: 1, date: FUTURE, startHour: 10, endHour: 15 },
    { fieldId: 1, date: FUTURE, startHour: 5, endHour: 7 },
    { fieldId: '1', date: FUTURE, startHour: 10, endHour: 11 },
  ]) {
    await problem(await call('POST', '/sports/reservations', { token, body }), 400, 'invalid-body');
  }
  await problem(await call('POST', '/sports/reservations', { token, body: { fieldId: 19, date: FUTURE, startHour: 10, endHour: 11 } }), 404, 'not-found');
  await problem(await call('POST', '/sports/reservations', { token, body: { fieldId: 13, date: FUTURE, startHour: 10, endHour: 11 } }), 409, 'conflict');
});

test("a reservation: read by its user or its field's owner, decided by the owner only, rated only once accepted", async () => {
  const user = await login(USER.username);
  const owner = await login(OWNER.username);
  const other = await login(OTHER_OWNER.username);
  const read = await call('GET', '/sports/reservations/50', { token: user });
  assert.equal(read.status, 200);
  assert.equal((await read.json()).ownerId, undefined, 'the owner id is not part of the answer');
  await problem(await call('GET', '/sports/reservations/50', { token: other }), 403, 'forbidden');
  await problem(await call('GET', '/sports/reservations/51', { token: user }), 404, 'not-found');
  await problem(await call('PUT', '/sports/reservations/50/status', { token: user, body: { status: 'accepted' } }), 403, 'forbidden');
  await problem(await call('PUT', '/sports/reservations/50/status', { token: owner, body: { status: 'pending' } }), 400, 'invalid-body');
  const decided = await call('PUT', '/sports/reservations/50/status', { token: owner, body: { status: 'accepted' } });
  assert.equal(decided.status, 200);
  assert.equal((await decided.json()).status, 'accepted');
  // The fake keeps the reservation pending: rating it is a 409; the owner may not rate at all.
  await problem(await call('POST', '/sports/reservations/50/rating', { token: user, body: { score: 5 } }), 409, 'conflict');
  await problem(await call('POST', '/sports/reservations/50/rating', { token: owner, body: { score: 5 } }), 403, 'forbidden');
  await problem(await call('GET', '/sports/reservations/50/rating', { token: user }), 404, 'not-found');
});

test('a database that does not answer in time is a 503 unavailable problem, not a 500', async () => {
  const token = await login(USER.username);
  await problem(await call('GET', '/sports/sports-fields/500', { token }), 503, 'unavailable');
});

/** A pg pool that records each statement and answers with `rows`, or fails with `error`. */
function fakePool({ rows = [], error } = {}) {
  const log = [];
  return {
    log,
    async query(sql, params) {
      log.push({ sql, params });
      if (error) throw error;
      return { rows: /COUNT\(\*\)/.test(sql) ? [{ n: '42' }] : rows };
    },
  };
}

test('data: a page is LIMIT/OFFSET with its total; the sport filter is a parameter', async () => {
  const pool = fakePool({ rows: [{ id: 6 }] });
  const page = await createSportsData(pool).fields({ page: 3, size: 5 }, 'padel');
  assert.deepEqual(page, { items: [{ id: 6 }], page: 3, size: 5, total: 42 });
  assert.match(pool.log[0].sql, /WHERE sport = \$1 ORDER BY id LIMIT 5 OFFSET 10$/);
  assert.deepEqual(pool.log[0].params, ['padel']);
});

test("data: an owner's reservations are their fields', a user's their own, in one joined query each", async () => {
  const pool = fakePool();
  const data = createSportsData(pool);
  await data.reservations(OWNER, { page: 1, size: 20 }, 'pending');
  await data.reservations(USER, { page: 1, size: 20 }, undefined);
  assert.match(pool.log[0].sql, /WHERE fa\.owner_id = \$1 AND r\.status = \$2/);
  assert.deepEqual(pool.log[0].params, [OWNER.id, 'pending']);
  assert.match(pool.log[2].sql, /WHERE r\.user_id = \$1 ORDER BY/);
  assert.equal(pool.log.length, 4);
});

test("data: the database's constraints become Overlap and Taken; other errors pass through", async () => {
  const exclusion = Object.assign(new Error('conflicting key value violates exclusion constraint'), { code: '23P01' });
  await assert.rejects(createSportsData(fakePool({ error: exclusion })).createReservation(7, { fieldId: 1, date: FUTURE, startHour: 6, endHour: 7 }), Overlap);
  const unique = Object.assign(new Error('duplicate key value'), { code: '23505' });
  await assert.rejects(createSportsData(fakePool({ error: unique })).createRating(50, { score: 3 }), Taken);
  await assert.rejects(createSportsData(fakePool({ error: unique })).createUser({ username: 'a', passwordHash: 'h', name: 'n', surname: 's' }), Taken);
  await assert.rejects(createSportsData(fakePool({ error: new Error('Query read timeout') })).createRating(50, { score: 3 }), /Query read timeout/);
});

test('data: a username with U+0000 finds no one without asking PostgreSQL (text cannot hold it)', async () => {
  const pool = fakePool();
  assert.equal(await createSportsData(pool).credentials('a\u0000b'), null);
  assert.equal(pool.log.length, 0);
});

test("node-postgres's timeouts, lost connections and PostgreSQL's unavailability states are 503s; other errors are not", () => {
  for (const message of ['Query read timeout', 'timeout exceeded when trying to connect', 'Connection terminated due to connection timeout', 'Connection terminated unexpectedly']) {
    assert.equal(databaseUnavailable(new Error(message)), true, message);
  }
  for (const code of ['57014', '57P01', '57P03', '08006', 'ECONNREFUSED']) assert.equal(databaseUnavailable(Object.assign(new Error('x'), { code })), true, code);
  for (const code of ['23505', '23P01', '42601']) assert.equal(databaseUnavailable(Object.assign(new Error('Query read timeout'), { code })), false, code);
  assert.equal(databaseUnavailable(new Error('something else')), false);
});

test('the pg pool waits at most DB_TIMEOUT_MS for a checkout, a connection, an answer and a statement', () => {
  assert.deepEqual(PG_TIMEOUTS, { connectionTimeoutMillis: DB_TIMEOUT_MS, query_timeout: DB_TIMEOUT_MS, statement_timeout: DB_TIMEOUT_MS });
});
