// The sports API without a database: the routes over server.inject with an in-memory data
// layer standing in for src/data/sports.js (the strategy, the scope, the prerequisites and
// the order of the checks, the joi schemas, the problems), the data module's SQL and error
// mapping over a fake pg pool, and which pg errors mean "unavailable". The SQL itself runs
// against PostgreSQL in the conformance suite.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import bcrypt from 'bcrypt';
import { createServer } from '../src/app.js';
import { createSportsData, Overlap, Taken } from '../src/data/sports.js';
import { databaseUnavailable, PG_TIMEOUTS } from '../src/db-timeouts.js';
import { bookingRuleBroken, isId } from '../src/schemas/sports.js';

const SECRET = 'unit-test-secret';
const OWNER = { id: 1, username: 'owner.one', name: 'Olga', surname: 'Owner', role: 'owner' };
const OTHER_OWNER = { id: 2, username: 'owner.two', name: 'Otto', surname: 'Owner', role: 'owner' };
const USER = { id: 3, username: 'user.three', name: 'Ugo', surname: 'User', role: 'user' };
const OTHER_USER = { id: 4, username: 'user.four', name: 'Uma', surname: 'User', role: 'user' };
const FACILITY = { id: 1, name: 'Club', city: 'Napoli', address: 'Via 1', ownerId: OWNER.id };
const OTHER_FACILITY = { id: 2, name: 'Other', city: 'Roma', address: 'Via 2', ownerId: OTHER_OWNER.id };
const FIELD = { id: 1, facilityId: 1, name: 'Court 1', sport: 'tennis', pricePerHour: 20 };

/** The data layer's contract in memory: what the handlers may rely on, including the database's refusals. */
function memorySports() {
  const users = new Map([OWNER, OTHER_OWNER, USER, OTHER_USER].map((u) => [u.id, { ...u }]));
  const hashes = new Map([[USER.username, bcrypt.hashSync('user-password', 4)]]);
  const fields = new Map([[FIELD.id, { ...FIELD }]]);
  const reservations = new Map();
  const ratings = new Map();
  let failing = false;
  const check = () => {
    if (failing) throw new Error('Query read timeout');
  };
  const pageOf = (all, { page, size }) => ({ items: all.slice((page - 1) * size, page * size), page, size, total: all.length });
  const ownerOf = (r) => [FACILITY, OTHER_FACILITY].find((f) => f.id === fields.get(r.fieldId).facilityId).ownerId;
  return {
    users,
    reservations,
    fail(on) { failing = on; },
    async userById(id) { check(); return users.has(id) ? { ...users.get(id) } : null; },
    async credentials(username) {
      check();
      const user = [...users.values()].find((u) => u.username === username);
      return user ? { user, hash: hashes.get(username) ?? bcrypt.hashSync('x', 4) } : null;
    },
    async createUser({ passwordHash, ...profile }) {
      check();
      if ([...users.values()].some((u) => u.username === profile.username)) throw new Taken(profile.username);
      const user = { id: users.size + 10, ...profile, role: 'user' };
      users.set(user.id, user);
      hashes.set(user.username, passwordHash);
      return { ...user };
    },
    async facilities(paging) { check(); return pageOf([FACILITY, OTHER_FACILITY], paging); },
    async facilityById(id) { check(); return [FACILITY, OTHER_FACILITY].find((f) => f.id === id) ?? null; },
    async fieldsOf(facilityId) { check(); return [...fields.values()].filter((f) => f.facilityId === facilityId); },
    async createField(facilityId, input) {
      check();
      if ([...fields.values()].some((f) => f.facilityId === facilityId && f.name === input.name)) throw new Taken(input.name);
      const field = { id: fields.size + 1, facilityId, ...input };
      fields.set(field.id, field);
      return field;
    },
    async fields(paging, sport) { check(); return pageOf([...fields.values()].filter((f) => sport === undefined || f.sport === sport), paging); },
    async fieldById(id) { check(); return fields.get(id) ?? null; },
    async reservations(caller, paging, status) {
      check();
      const mine = [...reservations.values()].filter((r) => (caller.role === 'owner' ? ownerOf(r) === caller.id : r.userId === caller.id));
      return pageOf(mine.filter((r) => status === undefined || r.status === status), paging);
    },
    async reservationById(id) { check(); const r = reservations.get(id); return r ? { ...r, ownerId: ownerOf(r) } : null; },
    async createReservation(userId, { fieldId, date, startHour, endHour }) {
      check();
      const overlaps = [...reservations.values()].some((r) => r.fieldId === fieldId && r.date === date && r.status !== 'refused' && r.startHour < endHour && startHour < r.endHour);
      if (overlaps) throw new Overlap('overlap');
      const r = { id: reservations.size + 1, fieldId, userId, date, startHour, endHour, status: 'pending' };
      reservations.set(r.id, r);
      return { ...r };
    },
    async decide(id, status) { check(); const r = reservations.get(id); if (r.status !== 'pending') return null; r.status = status; return { ...r }; },
    async ratingOf(id) { check(); return ratings.get(id) ?? null; },
    async createRating(id, { score, comment }) {
      check();
      if (ratings.has(id)) throw new Taken('rated');
      ratings.set(id, { reservationId: id, score, comment: comment ?? null });
      return ratings.get(id);
    },
  };
}

const b64 = (value) => Buffer.from(JSON.stringify(value)).toString('base64url');
function forge(claims, { secret = SECRET, alg = 'HS256' } = {}) {
  const now = Math.floor(Date.now() / 1000);
  const body = `${b64({ alg, typ: 'JWT' })}.${b64({ iat: now, exp: now + 60, ...claims })}`;
  return alg === 'none' ? `${body}.` : `${body}.${createHmac('sha256', secret).update(body).digest('base64url')}`;
}
const as = (user, claims = {}) => ({ authorization: `Bearer ${forge({ sub: String(user.id), role: user.role, ...claims })}` });

let server;
let data;
before(async () => {
  data = memorySports();
  server = await createServer({ port: 0, host: '127.0.0.1', apis: { sports: { data, jwt: { secret: SECRET, lifetimeSeconds: 90 } } } });
});
after(() => server.stop());

async function inject(method, url, { json, body, headers = {}, type = 'application/json' } = {}) {
  const payload = json !== undefined ? JSON.stringify(json) : body;
  const res = await server.inject({ method, url, payload, headers: { ...(payload !== undefined ? { 'content-type': type } : {}), ...headers } });
  assert.match(res.headers['server-timing'], /^app;dur=\d+\.\d{3}$/);
  return res;
}
function expectProblem(res, status, type) {
  assert.equal(res.statusCode, status, res.payload);
  assert.match(res.headers['content-type'], /^application\/problem\+json/);
  assert.equal(JSON.parse(res.payload).type, `urn:fairbench:problem:${type}`);
  if (status === 401) assert.equal(res.headers['www-authenticate'], 'Bearer');
}
const future = (days) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

test('sign up (role user, Location), log in, and the token (sub the id as a decimal string) authenticates', async () => {
  const created = await inject('POST', '/sports/users', { json: { username: 'new.player', password: 'serve-and-volley', name: 'N', surname: 'P' } });
  assert.equal(created.statusCode, 201, created.payload);
  const user = JSON.parse(created.payload);
  assert.deepEqual(user, { id: user.id, username: 'new.player', name: 'N', surname: 'P', role: 'user' });
  assert.equal(created.headers.location, `/sports/users/${user.id}`);
  assert.ok(data.users.get(user.id) !== undefined);
  const login = await inject('POST', '/sports/login', { json: { username: 'new.player', password: 'serve-and-volley' } });
  const { token, tokenType, expiresIn } = JSON.parse(login.payload);
  assert.deepEqual({ tokenType, expiresIn }, { tokenType: 'Bearer', expiresIn: 90 });
  assert.equal(JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()).sub, String(user.id));
  const me = await inject('GET', `/sports/users/${user.id}`, { headers: { authorization: `Bearer ${token}` } });
  assert.deepEqual(JSON.parse(me.payload), user);
  expectProblem(await inject('POST', '/sports/users', { json: { username: 'new.player', password: 'another', name: 'N', surname: 'P' } }), 409, 'conflict');
  for (const json of [{ username: 'x.y', password: 'secret1', name: 'N', surname: 'P', role: 'owner' }, { username: 'x.y', password: 'secret1', name: 'A\u0000', surname: 'P' }, { username: 'x.y', password: 'é'.repeat(37), name: 'N', surname: 'P' }]) {
    expectProblem(await inject('POST', '/sports/users', { json }), 400, 'invalid-body');
  }
  const astral = await inject('POST', '/sports/users', { json: { username: 'astral', password: 'secret1', name: '😀'.repeat(100), surname: 'P' } });
  assert.equal(astral.statusCode, 201, astral.payload);
});

test('login: a wrong password, an unknown user and a username with U+0000 get the same 401', async () => {
  const wrong = await inject('POST', '/sports/login', { json: { username: USER.username, password: 'not-it' } });
  expectProblem(wrong, 401, 'unauthorized');
  assert.equal((await inject('POST', '/sports/login', { json: { username: 'nobody', password: 'not-it' } })).payload, wrong.payload);
  assert.equal((await inject('POST', '/sports/login', { json: { username: 'user\u0000', password: 'not-it' } })).payload, wrong.payload);
  assert.equal((await inject('POST', '/sports/login', { json: { username: USER.username, password: 'user-password' } })).statusCode, 200);
  expectProblem(await inject('POST', '/sports/login', { json: { username: USER.username } }), 400, 'invalid-body');
  expectProblem(await inject('POST', '/sports/login', { body: '{"username":' }), 400, 'malformed-body');
});

test('the strategy refuses every token but a signed, unexpired one of a stored user; the stored role decides', async () => {
  const now = Math.floor(Date.now() / 1000);
  assert.equal((await inject('GET', '/sports/sports-facilities', { headers: as(USER) })).statusCode, 200);
  const refused = [
    undefined,
    `Bearer ${forge({ sub: '3' }, { secret: 'wrong' })}`,
    `Bearer ${forge({ sub: '3' }, { alg: 'none' })}`,
    `Bearer ${forge({ sub: '3', exp: now - 60 })}`,
    `Bearer ${forge({ sub: '3', exp: undefined })}`,
    `Bearer ${forge({ sub: 3 })}`,
    ...['999', '0', '03', '-1', '2147483648', '1.5', 'abc', '3\n'].map((sub) => `Bearer ${forge({ sub })}`),
    // Date claims are NumericDates, numbers (issue 51).
    ...[{ exp: String(now + 60) }, { nbf: String(now - 60) }, { iat: String(now - 60) }].map((dates) => `Bearer ${forge({ sub: '3', ...dates })}`),
  ];
  for (const authorization of refused) expectProblem(await inject('GET', '/sports/sports-facilities', { headers: authorization ? { authorization } : {} }), 401, 'unauthorized');
  // A user whose token claims the owner role is still a user.
  expectProblem(await inject('POST', '/sports/sports-facilities/1/sports-field', { json: { name: 'Fake', sport: 'tennis', pricePerHour: 10 }, headers: as(USER, { role: 'owner' }) }), 403, 'forbidden');
  // The token before the body: no token and not JSON is a 401.
  expectProblem(await inject('POST', '/sports/sports-facilities/1/sports-field', { body: 'x', type: 'text/plain' }), 401, 'unauthorized');
});

test('adding a field: id 400, existence 404, permission 403, then the body (415, 413, malformed, invalid), then 201', async () => {
  const owner = { headers: as(OWNER) };
  const valid = { name: 'Campo', sport: 'padel', pricePerHour: 25 };
  expectProblem(await inject('POST', '/sports/sports-facilities/01/sports-field', { body: '{', ...owner }), 400, 'invalid-parameter');
  expectProblem(await inject('POST', '/sports/sports-facilities/99/sports-field', { body: '{', ...owner }), 404, 'not-found');
  for (const request of [{ body: '{"name":' }, { body: 'name=x', type: 'text/plain' }, { json: { name: 'x'.repeat(70_000) } }, { json: { name: '' } }]) {
    expectProblem(await inject('POST', '/sports/sports-facilities/2/sports-field', { ...request, ...owner }), 403, 'forbidden');
  }
  expectProblem(await inject('POST', '/sports/sports-facilities/1/sports-field', { body: 'name=x', type: 'text/plain', ...owner }), 415, 'unsupported-media-type');
  expectProblem(await inject('POST', '/sports/sports-facilities/1/sports-field', { json: { ...valid, name: 'x'.repeat(70_000) }, ...owner }), 413, 'payload-too-large');
  expectProblem(await inject('POST', '/sports/sports-facilities/1/sports-field', { body: '{"name":', ...owner }), 400, 'malformed-body');
  // Bytes that are not UTF-8 are malformed too (issue 51), after the permission like any body fault.
  const notUtf8 = Buffer.concat([Buffer.from('{"name":"'), Buffer.from([0xff]), Buffer.from('","sport":"padel","pricePerHour":25}')]);
  expectProblem(await inject('POST', '/sports/sports-facilities/2/sports-field', { body: notUtf8, ...owner }), 403, 'forbidden');
  expectProblem(await inject('POST', '/sports/sports-facilities/1/sports-field', { body: notUtf8, ...owner }), 400, 'malformed-body');
  for (const json of [{ ...valid, pricePerHour: '25' }, { ...valid, pricePerHour: 10.5 }, { ...valid, sport: 'golf' }, { ...valid, facilityId: 2 }, [], null]) {
    expectProblem(await inject('POST', '/sports/sports-facilities/1/sports-field', { json, ...owner }), 400, 'invalid-body');
  }
  const created = await inject('POST', '/sports/sports-facilities/1/sports-field', { json: valid, ...owner });
  assert.equal(created.statusCode, 201, created.payload);
  assert.deepEqual(JSON.parse(created.payload), { id: 2, facilityId: 1, ...valid });
  assert.equal(created.headers.location, '/sports/sports-fields/2');
  expectProblem(await inject('POST', '/sports/sports-facilities/1/sports-field', { json: valid, ...owner }), 409, 'conflict');
  const facility = JSON.parse((await inject('GET', '/sports/sports-facilities/1', owner)).payload);
  assert.deepEqual(facility.fields.map((f) => f.name), ['Court 1', 'Campo']);
});

test('reserving: users only (403 before the body), the booking rules, the field (404), overlaps (409)', async () => {
  const date = future(30);
  expectProblem(await inject('POST', '/sports/reservations', { body: '{"fieldId":', headers: as(OWNER) }), 403, 'forbidden');
  expectProblem(await inject('POST', '/sports/reservations', { body: '{"fieldId":', headers: as(USER) }), 400, 'malformed-body');
  for (const slot of [{ date: '2020-01-01', startHour: 10, endHour: 11 }, { date: '2098-02-30', startHour: 10, endHour: 11 }, { date: '2100-01-01', startHour: 10, endHour: 11 }, { date, startHour: 12, endHour: 12 }, { date, startHour: 8, endHour: 13 }, { date, startHour: 5, endHour: 7 }]) {
    expectProblem(await inject('POST', '/sports/reservations', { json: { fieldId: 1, ...slot }, headers: as(USER) }), 400, 'invalid-body');
  }
  expectProblem(await inject('POST', '/sports/reservations', { json: { fieldId: 99, date, startHour: 10, endHour: 12 }, headers: as(USER) }), 404, 'not-found');
  const made = await inject('POST', '/sports/reservations', { json: { fieldId: 1, date, startHour: 10, endHour: 12 }, headers: as(USER) });
  assert.equal(made.statusCode, 201, made.payload);
  const reservation = JSON.parse(made.payload);
  assert.deepEqual(reservation, { id: reservation.id, fieldId: 1, userId: USER.id, date, startHour: 10, endHour: 12, status: 'pending' });
  assert.equal(made.headers.location, `/sports/reservations/${reservation.id}`);
  expectProblem(await inject('POST', '/sports/reservations', { json: { fieldId: 1, date, startHour: 11, endHour: 13 }, headers: as(OTHER_USER) }), 409, 'conflict');
  assert.equal((await inject('POST', '/sports/reservations', { json: { fieldId: 1, date, startHour: 12, endHour: 14 }, headers: as(OTHER_USER) })).statusCode, 201);

  // Reads: its user and its field's owner; nobody else.
  const path = `/sports/reservations/${reservation.id}`;
  assert.deepEqual(JSON.parse((await inject('GET', path, { headers: as(USER) })).payload), reservation);
  assert.deepEqual(JSON.parse((await inject('GET', path, { headers: as(OWNER) })).payload), reservation);
  for (const other of [OTHER_USER, OTHER_OWNER]) expectProblem(await inject('GET', path, { headers: as(other) }), 403, 'forbidden');
  expectProblem(await inject('GET', '/sports/reservations/999', { headers: as(USER) }), 404, 'not-found');

  // Lists: a user's own, an owner's fields'.
  assert.deepEqual(JSON.parse((await inject('GET', '/sports/reservations', { headers: as(USER) })).payload).items.map((r) => r.id), [reservation.id]);
  assert.equal(JSON.parse((await inject('GET', '/sports/reservations?status=pending', { headers: as(OWNER) })).payload).total, 2);
  assert.equal(JSON.parse((await inject('GET', '/sports/reservations', { headers: as(OTHER_OWNER) })).payload).total, 0);
});

test('deciding and rating: who may, in which state, once', async () => {
  const made = JSON.parse((await inject('POST', '/sports/reservations', { json: { fieldId: 1, date: future(40), startHour: 8, endHour: 9 }, headers: as(USER) })).payload);
  const status = `/sports/reservations/${made.id}/status`;
  const rating = `/sports/reservations/${made.id}/rating`;
  expectProblem(await inject('POST', rating, { json: { score: 5 }, headers: as(USER) }), 409, 'conflict');
  for (const other of [USER, OTHER_OWNER]) expectProblem(await inject('PUT', status, { body: '{', headers: as(other) }), 403, 'forbidden');
  expectProblem(await inject('PUT', status, { json: { status: 'pending' }, headers: as(OWNER) }), 400, 'invalid-body');
  const accepted = await inject('PUT', status, { json: { status: 'accepted' }, headers: as(OWNER) });
  assert.deepEqual(JSON.parse(accepted.payload), { ...made, status: 'accepted' });
  expectProblem(await inject('PUT', status, { json: { status: 'refused' }, headers: as(OWNER) }), 409, 'conflict');

  expectProblem(await inject('GET', rating, { headers: as(USER) }), 404, 'not-found');
  for (const other of [OWNER, OTHER_USER]) expectProblem(await inject('POST', rating, { json: { score: 5 }, headers: as(other) }), 403, 'forbidden');
  for (const json of [{ score: 0 }, { score: '4' }, { score: 4, comment: '' }, { score: 4, comment: 'a\u0000' }, { score: 4, reservationId: 1 }]) {
    expectProblem(await inject('POST', rating, { json, headers: as(USER) }), 400, 'invalid-body');
  }
  const rated = await inject('POST', rating, { json: { score: 4 }, headers: as(USER) });
  assert.equal(rated.statusCode, 201, rated.payload);
  assert.deepEqual(JSON.parse(rated.payload), { reservationId: made.id, score: 4, comment: null });
  assert.equal(rated.headers.location, rating);
  expectProblem(await inject('POST', rating, { json: { score: 1 }, headers: as(USER) }), 409, 'conflict');
  assert.deepEqual(JSON.parse((await inject('GET', rating, { headers: as(OWNER) })).payload), { reservationId: made.id, score: 4, comment: null });
  expectProblem(await inject('GET', rating, { headers: as(OTHER_OWNER) }), 403, 'forbidden');
});

test('paging and filters: defaults, canonical decimals, lists of choices; ids; 405s', async () => {
  const page = JSON.parse((await inject('GET', '/sports/sports-facilities', { headers: as(USER) })).payload);
  assert.deepEqual({ ...page, items: page.items.length }, { items: 2, page: 1, size: 20, total: 2 });
  const second = JSON.parse((await inject('GET', '/sports/sports-facilities?page=2&size=1&other=x', { headers: as(USER) })).payload);
  assert.deepEqual(second.items.map((f) => f.id), [2]);
  for (const query of ['page=0', 'page=01', 'page=100001', 'size=0', 'size=101', 'size=', 'size=1.5', 'page=1&page=2']) {
    expectProblem(await inject('GET', `/sports/sports-facilities?${query}`, { headers: as(USER) }), 400, 'invalid-parameter');
  }
  assert.equal(JSON.parse((await inject('GET', '/sports/sports-fields?sport=tennis', { headers: as(USER) })).payload).total, 1);
  for (const query of ['sport=golf', 'sport=Tennis', 'sport=']) expectProblem(await inject('GET', `/sports/sports-fields?${query}`, { headers: as(USER) }), 400, 'invalid-parameter');
  expectProblem(await inject('GET', '/sports/reservations?status=done', { headers: as(USER) }), 400, 'invalid-parameter');
  for (const id of ['abc', '0', '01', '-1', '2147483648', '1.5', '1e3']) expectProblem(await inject('GET', `/sports/sports-fields/${id}`, { headers: as(USER) }), 400, 'invalid-parameter');
  expectProblem(await inject('GET', '/sports/users/2147483647', { headers: as(USER) }), 404, 'not-found');
  for (const [method, path, allow] of [['DELETE', '/sports/reservations/1', 'GET, HEAD'], ['PUT', '/sports/sports-facilities', 'GET, HEAD'], ['GET', '/sports/login', 'POST'], ['GET', '/sports/reservations/1/status', 'PUT']]) {
    const res = await inject(method, path, { headers: as(USER) });
    expectProblem(res, 405, 'method-not-allowed');
    assert.equal(res.headers.allow, allow);
  }
  expectProblem(await inject('GET', '/sports/sports-facility', { headers: as(USER) }), 404, 'not-found');
});

test('a database that does not answer is a 503, also while the strategy loads the caller', async () => {
  data.fail(true);
  try {
    expectProblem(await inject('GET', '/sports/sports-fields', { headers: as(USER) }), 503, 'unavailable');
    expectProblem(await inject('POST', '/sports/login', { json: { username: USER.username, password: 'x' } }), 503, 'unavailable');
  } finally {
    data.fail(false);
  }
});

test('the booking rules JSON Schema cannot state; canonical ids', () => {
  const today = '2030-06-15';
  assert.equal(bookingRuleBroken({ date: today, startHour: 10, endHour: 14 }, today), null);
  assert.match(bookingRuleBroken({ date: '2030-06-14', startHour: 10, endHour: 11 }, today), /before today/);
  assert.match(bookingRuleBroken({ date: '2031-02-29', startHour: 10, endHour: 11 }, today), /not a calendar date/);
  assert.equal(bookingRuleBroken({ date: '2032-02-29', startHour: 10, endHour: 11 }, today), null);
  assert.match(bookingRuleBroken({ date: '2100-01-01', startHour: 10, endHour: 11 }, today), /after 2099-12-31/);
  assert.match(bookingRuleBroken({ date: today, startHour: 10, endHour: 15 }, today), /1 to 4 hours/);
  assert.deepEqual(['1', '2147483647', '0', '01', '2147483648', '1e3', ' 1'].map(isId), [true, true, false, false, false, false, false]);
});

/** A pg-like pool that records each statement and answers from `answer(sql, params)`. */
function fakePg(answer = () => ({ rows: [] })) {
  const log = [];
  return { log, async query(sql, params) { log.push({ sql, params }); return answer(sql, params); } };
}

test('data: a list is one joined query and its count, paged by parameters', async () => {
  const pool = fakePg((sql) => ({ rows: sql.startsWith('SELECT COUNT') ? [{ total: '7' }] : [{ id: 5 }] }));
  const data = createSportsData(pool);
  assert.deepEqual(await data.reservations({ id: 1, role: 'owner' }, { page: 3, size: 2 }, 'pending'), { items: [{ id: 5 }], page: 3, size: 2, total: 7 });
  assert.equal(pool.log.length, 2);
  const [list, count] = pool.log;
  assert.match(list.sql, /JOIN sports_field f .* JOIN sports_facility fa .* WHERE fa\.owner_id = \$1 AND r\.status = \$2 ORDER BY r\.id LIMIT \$3 OFFSET \$4$/);
  assert.deepEqual(list.params, [1, 'pending', 2, 4]);
  assert.match(count.sql, /^SELECT COUNT\(\*\) AS total FROM reservation r JOIN .* WHERE fa\.owner_id = \$1 AND r\.status = \$2$/);
  await data.reservations({ id: 3, role: 'user' }, { page: 1, size: 20 });
  assert.match(pool.log[2].sql, /WHERE r\.user_id = \$1 ORDER BY r\.id LIMIT \$2 OFFSET \$3$/);
  assert.deepEqual(pool.log[2].params, [3, 20, 0]);
  await data.fields({ page: 1, size: 5 }, 'padel');
  assert.deepEqual(pool.log[4].params, ['padel', 5, 0]);
});

test('data: the database\'s refusals become Overlap and Taken; other errors pass', async () => {
  const refusal = (code) => () => { throw Object.assign(new Error('refused'), { code, detail: 'Key exists' }); };
  await assert.rejects(createSportsData(fakePg(refusal('23P01'))).createReservation(3, { fieldId: 1, date: '2098-01-01', startHour: 6, endHour: 7 }), Overlap);
  await assert.rejects(createSportsData(fakePg(refusal('23505'))).createRating(1, { score: 3 }), Taken);
  await assert.rejects(createSportsData(fakePg(refusal('23505'))).createUser({ username: 'u', passwordHash: 'h', name: 'n', surname: 's' }), Taken);
  await assert.rejects(createSportsData(fakePg(refusal('23505'))).createReservation(3, { fieldId: 1, date: '2098-01-01', startHour: 6, endHour: 7 }), { code: '23505' });
  const pool = fakePg(() => ({ rows: [] }));
  assert.equal(await createSportsData(pool).decide(1, 'accepted'), null);
  assert.match(pool.log[0].sql, /WHERE r\.id = \$1 AND r\.status = 'pending' RETURNING/);
  assert.equal(await createSportsData(pool).credentials('a\u0000b'), null);
  assert.equal(pool.log.length, 1);
});

test('pg timeouts are set, and pg\'s timeouts and lost connections are "unavailable", its other errors not', () => {
  assert.deepEqual(PG_TIMEOUTS, { connectionTimeoutMillis: 2000, query_timeout: 2000, statement_timeout: 2000 });
  const unavailable = [
    new Error('Query read timeout'),
    new Error('timeout exceeded when trying to connect'),
    new Error('Connection terminated unexpectedly'),
    new Error('Connection terminated due to connection timeout'),
    Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' }),
    Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
    Object.assign(new Error('the database system is starting up'), { code: '57P03' }),
    Object.assign(new Error('connection failure'), { code: '08006' }),
    Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }),
  ];
  for (const err of unavailable) assert.equal(databaseUnavailable(err), true, err.message);
  for (const err of [new Error('syntax error'), Object.assign(new Error('dup'), { code: '23505' }), Object.assign(new Error('x'), { code: '22P02' })]) {
    assert.equal(databaseUnavailable(err), false, err.message);
  }
});

test('a __proto__ member is a 400 invalid-body (well-formed JSON; the parser refuses it, joi would never see it), nothing stored', async () => {
  const before = data.users.size;
  const res = await inject('POST', '/sports/users', { body: '{"__proto__":{"role":"owner"},"username":"proto.user","password":"secret-1","name":"P","surname":"U"}' });
  expectProblem(res, 400, 'invalid-body');
  assert.equal(data.users.size, before);
  expectProblem(await inject('POST', '/sports/users', { body: '{"username":' }), 400, 'malformed-body');
});
