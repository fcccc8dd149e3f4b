// The sports API without a database: sign-up and login (closed bodies, lengths in code points,
// the 72-byte password, one 401 for every bad credential), tokens (HS256 only, exp required, the
// stored role decides), the spec's order of checks on the writes (token, id, existence,
// permission before the body), the booking rule, states (409s), paging, and a database that did
// not answer (503), over an in-memory data layer with real bcrypt (Bun.password) and real tokens.
import { describe, expect, test } from 'bun:test';
import { SignJWT, UnsecuredJWT } from 'jose';
import { buildApp } from '../src/app.ts';
import { ConfigError, loadConfig } from '../src/config.ts';
import { DatabaseTimeout } from '../src/db-timeouts.ts';
import { postgresUnavailable } from '../src/postgres.ts';
import { Overlap, Taken, type Facility, type Field, type OwnedReservation, type Rating, type SportsData } from '../src/sports/data.ts';
import { reservationRuleBroken, type Paging, type SportsUser } from '../src/sports/schemas.ts';

const SECRET = 'test-secret';
const KEY = new TextEncoder().encode(SECRET);
const OWNER: SportsUser = { id: 1, username: 'owner1', name: 'O', surname: 'One', role: 'owner' };
const OTHER_OWNER: SportsUser = { id: 2, username: 'owner2', name: 'O', surname: 'Two', role: 'owner' };
const USER: SportsUser = { id: 3, username: 'user1', name: 'U', surname: 'One', role: 'user' };
const OTHER_USER: SportsUser = { id: 4, username: 'user2', name: 'U', surname: 'Two', role: 'user' };
const FACILITY: Facility = { id: 1, name: 'Club', city: 'Naples', address: 'Via 1', ownerId: OWNER.id };
const OTHER_FACILITY: Facility = { id: 2, name: 'Other', city: 'Rome', address: 'Via 2', ownerId: OTHER_OWNER.id };

/** What the fake database holds, and a switch that makes every call time out. */
async function fakeData() {
  const users = new Map<number, { user: SportsUser; hash: string }>();
  for (const user of [OWNER, OTHER_OWNER, USER, OTHER_USER]) users.set(user.id, { user, hash: await Bun.password.hash(`${user.username}-pw`, { algorithm: 'bcrypt', cost: 4 }) });
  const fields: Field[] = [
    { id: 1, facilityId: 1, name: 'Court 1', sport: 'tennis', pricePerHour: 20 },
    { id: 2, facilityId: 1, name: 'Pitch', sport: 'football', pricePerHour: 80 },
    { id: 3, facilityId: 2, name: 'Court A', sport: 'padel', pricePerHour: 30 },
  ];
  const reservations: OwnedReservation[] = [];
  const ratings = new Map<number, Rating>();
  const state = { down: false };
  const page = <T>(items: T[], { page, size }: Paging) => ({ items: items.slice((page - 1) * size, page * size), page, size, total: items.length });
  const ownerOf = (fieldId: number) => [FACILITY, OTHER_FACILITY].find((f) => f.id === fields.find((x) => x.id === fieldId)!.facilityId)!.ownerId;
  const api: Record<string, (...args: never[]) => Promise<unknown>> = {
    async userById(id: number) {
      return users.get(id)?.user ?? null;
    },
    async credentials(username: string) {
      return [...users.values()].find((u) => u.user.username === username) ?? null;
    },
    async createUser({ username, passwordHash, name, surname }: { username: string; passwordHash: string; name: string; surname: string }) {
      if ([...users.values()].some((u) => u.user.username === username)) throw new Taken(username);
      const user: SportsUser = { id: users.size + 1, username, name, surname, role: 'user' };
      users.set(user.id, { user, hash: passwordHash });
      return user;
    },
    async facilities(paging: Paging) {
      return page([FACILITY, OTHER_FACILITY], paging);
    },
    async facilityById(id: number) {
      return [FACILITY, OTHER_FACILITY].find((f) => f.id === id) ?? null;
    },
    async fieldsOf(facilityId: number) {
      return fields.filter((f) => f.facilityId === facilityId);
    },
    async createField(facilityId: number, body: Omit<Field, 'id' | 'facilityId'>) {
      if (fields.some((f) => f.facilityId === facilityId && f.name === body.name)) throw new Taken(body.name);
      const field = { id: fields.length + 1, facilityId, ...body };
      fields.push(field);
      return field;
    },
    async fields(paging: Paging, sport: string | undefined) {
      return page(fields.filter((f) => sport === undefined || f.sport === sport), paging);
    },
    async fieldById(id: number) {
      return fields.find((f) => f.id === id) ?? null;
    },
    async reservations(caller: SportsUser, paging: Paging, status: string | undefined) {
      const mine = reservations.filter((r) => (caller.role === 'owner' ? r.ownerId === caller.id : r.userId === caller.id) && (status === undefined || r.status === status));
      return page(mine.map(({ ownerId: _o, ...r }) => ({ ...r, fieldName: '', facilityId: 0, facilityName: '' })), paging);
    },
    async reservationById(id: number) {
      return reservations.find((r) => r.id === id) ?? null;
    },
    async createReservation(userId: number, { fieldId, date, startHour, endHour }: { fieldId: number; date: string; startHour: number; endHour: number }) {
      const overlaps = reservations.some((r) => r.fieldId === fieldId && r.date === date && r.status !== 'refused' && r.startHour < endHour && startHour < r.endHour);
      if (overlaps) throw new Overlap('overlap');
      const r: OwnedReservation = { id: reservations.length + 1, fieldId, userId, date, startHour, endHour, status: 'pending', ownerId: ownerOf(fieldId) };
      reservations.push(r);
      const { ownerId: _o, ...answer } = r;
      return answer;
    },
    async decide(id: number, status: 'accepted' | 'refused') {
      const index = reservations.findIndex((r) => r.id === id && r.status === 'pending');
      if (index < 0) return null;
      reservations[index] = { ...reservations[index]!, status };
      const { ownerId: _o, ...answer } = reservations[index]!;
      return answer;
    },
    async ratingOf(id: number) {
      return ratings.get(id) ?? null;
    },
    async createRating(id: number, { score, comment }: { score: number; comment?: string }) {
      if (ratings.has(id)) throw new Taken(String(id));
      const rating = { reservationId: id, score, comment: comment ?? null };
      ratings.set(id, rating);
      return rating;
    },
  };
  // Every call fails as node-postgres fails on a pool checkout that timed out while `down`.
  const data = Object.fromEntries(
    Object.entries(api).map(([name, run]) => [name, (...args: never[]) => (state.down ? Promise.reject(new Error('timeout exceeded when trying to connect')) : run(...args))]),
  );
  return { data: data as unknown as SportsData, state };
}

const { data, state } = await fakeData();
const app = buildApp({ sports: { data, jwt: { secret: SECRET, lifetimeSeconds: 60 } } });
const call = (method: string, path: string, { body, token, type = 'application/json' }: { body?: unknown; token?: string; type?: string } = {}) =>
  app.handle(
    new Request(`http://localhost${path}`, {
      method,
      ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
      headers: { 'content-type': type, ...(token === undefined ? {} : { authorization: `Bearer ${token}` }) },
    }),
  );
const forge = (sub: string, { alg = 'HS256', expiresIn = 60, role = 'owner' }: { alg?: string; expiresIn?: number; role?: string } = {}) =>
  new SignJWT({ role }).setProtectedHeader({ alg }).setSubject(sub).setExpirationTime(Math.floor(Date.now() / 1000) + expiresIn).sign(KEY);
const as = (user: SportsUser) => forge(String(user.id));

async function expectProblem(res: Response, status: number, type: string) {
  expect(res.headers.get('content-type')).toStartWith('application/problem+json');
  expect({ status: res.status, type: ((await res.json()) as { type: string }).type }).toEqual({ status, type: `urn:fairbench:problem:${type}` });
  expect(res.headers.get('server-timing')).toMatch(/^app;dur=\d+\.\d{3}$/);
}

describe('sports: sign-up and login', () => {
  test('a sign-up is 201 with Location and role user; its password (72 bytes) logs in; the token opens the reads', async () => {
    const res = await call('POST', '/sports/users', { body: { username: 'ada.l', password: 'é'.repeat(36), name: '😀'.repeat(100), surname: 'L' } });
    expect(res.status).toBe(201);
    const user = (await res.json()) as SportsUser;
    expect(user).toEqual({ id: user.id, username: 'ada.l', name: '😀'.repeat(100), surname: 'L', role: 'user' });
    expect(res.headers.get('location')).toBe(`/sports/users/${user.id}`);
    expect((await data.credentials('ada.l'))!.hash).toMatch(/^\$2[aby]\$10\$/); // bcrypt, cost 10
    const login = await call('POST', '/sports/login', { body: { username: 'ada.l', password: 'é'.repeat(36) } });
    const { token, tokenType, expiresIn } = (await login.json()) as { token: string; tokenType: string; expiresIn: number };
    expect([login.status, tokenType, expiresIn]).toEqual([200, 'Bearer', 60]);
    const claims = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;
    expect([claims.sub, claims.role, typeof claims.iat, claims.exp]).toEqual([String(user.id), 'user', 'number', (claims.iat as number) + 60]);
    expect(await (await call('GET', `/sports/users/${user.id}`, { token })).json()).toEqual(user);
  });

  test('role or any unknown member, 37 × é (74 bytes), 3 astral characters (6 UTF-16 units), 101 astral characters, U+0000 are 400; a taken username 409', async () => {
    const base = { username: 'mallory', password: 'secret-1', name: 'M', surname: 'E' };
    for (const body of [{ ...base, role: 'owner' }, { ...base, id: 9 }, { ...base, password: 'é'.repeat(37) }, { ...base, password: '😀'.repeat(3) }, { ...base, name: '😀'.repeat(101) }, { ...base, name: 'A\u0000B' }, [], null]) {
      await expectProblem(await call('POST', '/sports/users', { body: JSON.stringify(body) }), 400, 'invalid-body');
    }
    await expectProblem(await call('POST', '/sports/users', { body: { ...base, username: 'user1' } }), 409, 'conflict');
    await expectProblem(await call('POST', '/sports/login', { body: { username: 'user1', password: `${'é'.repeat(36)}x` } }), 400, 'invalid-body');
  });

  test('a wrong password, an unknown username and one holding U+0000 get the same 401, with WWW-Authenticate', async () => {
    const wrong = await call('POST', '/sports/login', { body: { username: 'user1', password: 'not-mine' } });
    expect(wrong.headers.get('www-authenticate')).toBe('Bearer');
    const body = await wrong.text();
    for (const username of ['nobody', 'user1\u0000']) expect(await (await call('POST', '/sports/login', { body: { username, password: 'not-mine' } })).text()).toBe(body);
    expect((await call('POST', '/sports/login', { body: { username: 'user1', password: 'user1-pw' } })).status).toBe(200);
  });
});

describe('sports: tokens', () => {
  test('alg none, HS512, another key, expired, no exp, a non-canonical or unknown sub are 401', async () => {
    expect((await call('GET', '/sports/sports-facilities', { token: await as(USER) })).status).toBe(200);
    const refused = [
      new UnsecuredJWT({}).setSubject('3').setExpirationTime('1h').encode(),
      await forge('3', { alg: 'HS512' }),
      await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject('3').setExpirationTime('1h').sign(new TextEncoder().encode('wrong')),
      await forge('3', { expiresIn: -60 }),
      await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject('3').sign(KEY),
      ...(await Promise.all(['03', '0', '3.0', '2147483648', '99'].map((sub) => forge(sub)))),
    ];
    for (const token of refused) await expectProblem(await call('GET', '/sports/sports-facilities', { token }), 401, 'unauthorized');
  });

  test('the stored role decides: a user whose token claims owner cannot add a field', async () => {
    const token = await forge(String(USER.id), { role: 'owner' });
    await expectProblem(await call('POST', '/sports/sports-facilities/1/sports-field', { token, body: { name: 'X', sport: 'tennis', pricePerHour: 5 } }), 403, 'forbidden');
  });
});

describe('sports: the order of checks before a body', () => {
  test('token (401, even with a text/plain body), id (400), existence (404), permission (403, even with malformed JSON), then the body', async () => {
    const path = (id: string | number) => `/sports/sports-facilities/${id}/sports-field`;
    await expectProblem(await call('POST', path(1), { body: 'not json', type: 'text/plain' }), 401, 'unauthorized');
    await expectProblem(await call('POST', path('01'), { token: await as(OWNER), body: '{"name":' }), 400, 'invalid-parameter');
    await expectProblem(await call('POST', path(99), { token: await as(OWNER), body: '{"name":' }), 404, 'not-found');
    await expectProblem(await call('POST', path(2), { token: await as(OWNER), body: '{"name":' }), 403, 'forbidden');
    await expectProblem(await call('POST', path(1), { token: await as(OWNER), body: 'name=N', type: 'text/plain' }), 415, 'unsupported-media-type');
    await expectProblem(await call('POST', path(1), { token: await as(OWNER), body: '{"name":' }), 400, 'malformed-body');
    await expectProblem(await call('POST', path(1), { token: await as(OWNER), body: { name: 'Court 1', sport: 'tennis', pricePerHour: 5 } }), 409, 'conflict');
    const res = await call('POST', path(1), { token: await as(OWNER), body: { name: 'Court 9', sport: 'padel', pricePerHour: 5 } });
    expect([res.status, res.headers.get('location')]).toEqual([201, '/sports/sports-fields/4']);
  });

  test('an owner may not reserve, whatever the body (403); a user may not decide, another user may not rate (403)', async () => {
    await expectProblem(await call('POST', '/sports/reservations', { token: await as(OWNER), body: '{"fieldId":' }), 403, 'forbidden');
    const made = await call('POST', '/sports/reservations', { token: await as(USER), body: { fieldId: 1, date: '2098-06-15', startHour: 10, endHour: 12 } });
    const { id } = (await made.json()) as { id: number };
    await expectProblem(await call('PUT', `/sports/reservations/${id}/status`, { token: await as(USER), body: '{' }), 403, 'forbidden');
    await expectProblem(await call('PUT', `/sports/reservations/${id}/status`, { token: await as(OTHER_OWNER), body: { status: 'accepted' } }), 403, 'forbidden');
    await expectProblem(await call('POST', `/sports/reservations/${id}/rating`, { token: await as(OTHER_USER), body: '{' }), 403, 'forbidden');
    await expectProblem(await call('GET', `/sports/reservations/${id}`, { token: await as(OTHER_USER) }), 403, 'forbidden');
    await expectProblem(await call('GET', '/sports/reservations/99', { token: await as(OTHER_USER) }), 404, 'not-found');
  });
});

describe('sports: booking, decisions, ratings', () => {
  test('the booking rule: past, impossible, too late or too long is a 400; an overlap a 409; a refusal frees the slot', async () => {
    const user = await as(USER);
    for (const [date, startHour, endHour] of [['2020-01-01', 10, 11], ['2098-02-30', 10, 11], ['2100-01-01', 10, 11], ['2098-06-16', 12, 12], ['2098-06-16', 8, 13], ['2098-06-16', 5, 7]] as const) {
      await expectProblem(await call('POST', '/sports/reservations', { token: user, body: { fieldId: 2, date, startHour, endHour } }), 400, 'invalid-body');
    }
    await expectProblem(await call('POST', '/sports/reservations', { token: user, body: { fieldId: 99, date: '2098-06-16', startHour: 10, endHour: 12 } }), 404, 'not-found');
    const first = (await (await call('POST', '/sports/reservations', { token: user, body: { fieldId: 2, date: '2098-06-16', startHour: 10, endHour: 12 } })).json()) as { id: number };
    await expectProblem(await call('POST', '/sports/reservations', { token: await as(OTHER_USER), body: { fieldId: 2, date: '2098-06-16', startHour: 11, endHour: 13 } }), 409, 'conflict');
    expect((await call('PUT', `/sports/reservations/${first.id}/status`, { token: await as(OWNER), body: { status: 'refused' } })).status).toBe(200);
    await expectProblem(await call('PUT', `/sports/reservations/${first.id}/status`, { token: await as(OWNER), body: { status: 'accepted' } }), 409, 'conflict');
    expect((await call('POST', '/sports/reservations', { token: await as(OTHER_USER), body: { fieldId: 2, date: '2098-06-16', startHour: 11, endHour: 13 } })).status).toBe(201);
  });

  test('a decision needs a status (no default fills it); a rating needs acceptance and is given once; its comment is null when absent', async () => {
    const made = (await (await call('POST', '/sports/reservations', { token: await as(USER), body: { fieldId: 1, date: '2098-06-17', startHour: 8, endHour: 9 } })).json()) as { id: number };
    const owner = await as(OWNER);
    for (const body of [{}, { status: 'pending' }, { status: 'accepted', id: 1 }]) {
      await expectProblem(await call('PUT', `/sports/reservations/${made.id}/status`, { token: owner, body }), 400, 'invalid-body');
    }
    await expectProblem(await call('POST', `/sports/reservations/${made.id}/rating`, { token: await as(USER), body: { score: 4 } }), 409, 'conflict');
    expect(await (await call('PUT', `/sports/reservations/${made.id}/status`, { token: owner, body: { status: 'accepted' } })).json()).toMatchObject({ id: made.id, status: 'accepted' });
    await expectProblem(await call('GET', `/sports/reservations/${made.id}/rating`, { token: owner }), 404, 'not-found');
    const rated = await call('POST', `/sports/reservations/${made.id}/rating`, { token: await as(USER), body: { score: 4 } });
    expect([rated.status, rated.headers.get('location'), await rated.json()]).toEqual([201, `/sports/reservations/${made.id}/rating`, { reservationId: made.id, score: 4, comment: null }]);
    await expectProblem(await call('POST', `/sports/reservations/${made.id}/rating`, { token: await as(USER), body: { score: 5 } }), 409, 'conflict');
    expect(await (await call('GET', `/sports/reservations/${made.id}/rating`, { token: owner })).json()).toEqual({ reservationId: made.id, score: 4, comment: null });
  });
});

describe('sports: lists and HTTP', () => {
  test('paging defaults to page 1 of 20; no filter unless asked (no schema default); other query parameters are ignored; bad paging is 400', async () => {
    const token = await as(USER);
    const all = (await (await call('GET', '/sports/sports-fields', { token })).json()) as { items: Field[]; page: number; size: number; total: number };
    expect([all.page, all.size, all.total, all.items.length]).toEqual([1, 20, 4, 4]);
    expect(((await (await call('GET', '/sports/sports-fields?sport=padel&size=1&page=2&x=1', { token })).json()) as { items: Field[]; total: number }).total).toBe(2);
    expect(((await (await call('GET', '/sports/reservations', { token })).json()) as { total: number }).total).toBe(3);
    for (const query of ['page=0', 'page=01', 'page=100001', 'size=101', 'size=', 'sport=Tennis']) {
      await expectProblem(await call('GET', `/sports/sports-fields?${query}`, { token }), 400, 'invalid-parameter');
    }
    await expectProblem(await call('GET', '/sports/reservations?status=done', { token }), 400, 'invalid-parameter');
  });

  test('a token before the id (401 for a bad id without one); another method is 405 without a token; a trailing slash is 404', async () => {
    await expectProblem(await call('GET', '/sports/users/abc'), 401, 'unauthorized');
    await expectProblem(await call('GET', '/sports/users/abc', { token: await as(USER) }), 400, 'invalid-parameter');
    const res = await call('DELETE', '/sports/reservations/1/rating');
    await expectProblem(res, 405, 'method-not-allowed');
    expect(res.headers.get('allow')).toBe('GET, POST');
    await expectProblem(await call('GET', '/sports/sports-fields/', { token: await as(USER) }), 404, 'not-found');
  });

  test('a database that does not answer is a 503 unavailable with Retry-After, on the caller lookup and on the work', async () => {
    const token = await as(USER);
    state.down = true;
    try {
      const res = await call('GET', '/sports/sports-fields/1', { token });
      await expectProblem(res, 503, 'unavailable');
      expect(res.headers.get('retry-after')).toBe('1');
      await expectProblem(await call('POST', '/sports/login', { body: { username: 'user1', password: 'user1-pw' } }), 503, 'unavailable');
    } finally {
      state.down = false;
    }
  });
});

describe('sports: rules and settings', () => {
  test('reservationRuleBroken takes today (UTC) and 2099-12-31, not the day before or after', () => {
    expect(reservationRuleBroken({ fieldId: 1, date: '2030-05-01', startHour: 6, endHour: 10 }, '2030-05-01')).toBeNull();
    expect(reservationRuleBroken({ fieldId: 1, date: '2099-12-31', startHour: 19, endHour: 23 }, '2030-05-01')).toBeNull();
    expect(reservationRuleBroken({ fieldId: 1, date: '2030-04-30', startHour: 6, endHour: 7 }, '2030-05-01')).toContain('past');
  });

  test('node-postgres timeouts, lost connections and the server cancelling are "unavailable"; a constraint or a syntax error is not', () => {
    for (const err of [new Error('Query read timeout'), new Error('Connection terminated unexpectedly'), Object.assign(new Error('x'), { code: '57014' }), Object.assign(new Error('x'), { code: '08006' }), Object.assign(new Error('x'), { code: 'ECONNREFUSED' }), new DatabaseTimeout()]) {
      expect(postgresUnavailable(err)).toBe(true);
    }
    for (const err of [Object.assign(new Error('x'), { code: '23505' }), Object.assign(new Error('x'), { code: '42601' }), new Error('something else'), null]) expect(postgresUnavailable(err)).toBe(false);
  });

  test('POSTGRES_URL serves sports and needs JWT_SECRET and the postgres scheme', () => {
    const env = { PORT: '0', DB_POOL_SIZE: '5', POSTGRES_URL: 'postgres://u:p@127.0.0.1:5432/sports', JWT_SECRET: 's' };
    expect(loadConfig(env)).toMatchObject({ postgresUrl: env.POSTGRES_URL, jwt: { secret: 's', lifetimeSeconds: 3600 } });
    expect(() => loadConfig({ ...env, JWT_SECRET: undefined })).toThrow(ConfigError);
    expect(() => loadConfig({ ...env, POSTGRES_URL: 'mysql://u:p@h/db' })).toThrow(/postgres: scheme/);
  });
});
