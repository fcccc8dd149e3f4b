// The users API without a database: registration rules (closed body, the 72-byte password),
// login and tokens (HS256 only, exp required, the stored user and role decide), and the spec's
// order of faults on the protected routes (token, id, permission before the body), over a fake
// data layer with real bcrypt (Bun.password) and real tokens (jose, as @elysiajs/jwt signs them).
import { describe, expect, test } from 'bun:test';
import { SignJWT, UnsecuredJWT } from 'jose';
import { buildApp } from '../src/app.ts';
import { BCRYPT, UsernameTaken, type UsersData } from '../src/users/data.ts';
import type { Registration, Update, User } from '../src/users/schemas.ts';

const SECRET = 'test-secret';
const KEY = new TextEncoder().encode(SECRET);
const ALICE: User = { id: 'a'.repeat(24), name: 'Alice', surname: 'A', username: 'alice', role: 'user' };
const ADMIN: User = { id: 'b'.repeat(24), name: 'Root', surname: 'R', username: 'root', role: 'admin' };
const BOB: User = { id: 'c'.repeat(24), name: 'Bob', surname: 'B', username: 'bob', role: 'user' };

async function fakeData() {
  const users = new Map<string, { user: User; hash: string }>();
  for (const user of [ALICE, ADMIN, BOB]) users.set(user.id, { user, hash: await Bun.password.hash(`${user.username}-password`, BCRYPT) });
  let next = 0;
  const data = {
    async list(limit: number) {
      return [...users.values()].map((u) => u.user).slice(0, limit);
    },
    async byId(id: string) {
      return users.get(id)?.user ?? null;
    },
    async credentials(username: string) {
      return [...users.values()].find((u) => u.user.username === username) ?? null;
    },
    async create(body: Registration, role: 'user' | 'admin') {
      if ((await data.credentials(body.username)) !== null) throw new UsernameTaken(body.username);
      const id = String(++next).padStart(24, 'd');
      const { password, ...rest } = body;
      const user = { id, ...rest, role };
      users.set(id, { user, hash: await Bun.password.hash(password, BCRYPT) });
      return user;
    },
    async update(id: string, changes: Update) {
      const stored = users.get(id);
      if (stored === undefined) return null;
      stored.user = { ...stored.user, ...changes };
      return stored.user;
    },
    async remove(id: string) {
      return users.delete(id);
    },
  };
  return data as UsersData;
}

const app = buildApp({ users: { data: await fakeData(), jwt: { secret: SECRET, lifetimeSeconds: 60 } } });
const call = (method: string, path: string, { body, token, type = 'application/json' }: { body?: unknown; token?: string; type?: string } = {}) =>
  app.handle(
    new Request(`http://localhost${path}`, {
      method,
      ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
      headers: { 'content-type': type, ...(token === undefined ? {} : { authorization: `Bearer ${token}` }) },
    }),
  );
const forge = (sub: string, { alg = 'HS256', expiresIn = 60 }: { alg?: string; expiresIn?: number } = {}) =>
  new SignJWT({ role: 'admin' }).setProtectedHeader({ alg }).setSubject(sub).setExpirationTime(Math.floor(Date.now() / 1000) + expiresIn).sign(KEY);

async function expectProblem(res: Response, status: number, type: string) {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toStartWith('application/problem+json');
  expect(((await res.json()) as { type: string }).type).toBe(`urn:fairbench:problem:${type}`);
  expect(res.headers.get('server-timing')).toMatch(/^app;dur=\d+\.\d{3}$/);
}

describe('users: registration and login', () => {
  test('a registration is 201 with Location and role user; its password logs in; the token opens /me', async () => {
    const res = await call('POST', '/users', { body: { name: 'Ada', surname: 'L', username: 'ada', password: 'é'.repeat(36), email: 'ada@example.com' } });
    expect(res.status).toBe(201);
    const user = (await res.json()) as User;
    expect(user).toEqual({ id: user.id, name: 'Ada', surname: 'L', username: 'ada', email: 'ada@example.com', role: 'user' });
    expect(res.headers.get('location')).toBe(`/users/${user.id}`);
    const login = await call('POST', '/auth/login', { body: { username: 'ada', password: 'é'.repeat(36) } });
    expect(login.status).toBe(200);
    const { token, tokenType, expiresIn } = (await login.json()) as { token: string; tokenType: string; expiresIn: number };
    expect([tokenType, expiresIn]).toEqual(['Bearer', 60]);
    expect(await (await call('GET', '/me', { token })).json()).toEqual(user);
  });

  test('role or any unknown member, 37 × é (74 bytes), a bad email and a short password are 400 invalid-body; a taken username 409', async () => {
    const base = { name: 'M', surname: 'E', username: 'mallory', password: 'secret1' };
    for (const body of [{ ...base, role: 'user' }, { ...base, id: 'x' }, { ...base, password: 'é'.repeat(37) }, { ...base, email: 'a b@c.d' }, { ...base, password: '12345' }, [], null]) {
      await expectProblem(await call('POST', '/users', { body: JSON.stringify(body) }), 400, 'invalid-body');
    }
    await expectProblem(await call('POST', '/users', { body: { ...base, username: 'alice' } }), 409, 'conflict');
    await expectProblem(await call('POST', '/auth/login', { body: { username: 'alice', password: `${'é'.repeat(36)}tail` } }), 400, 'invalid-body');
  });

  test('a wrong password and an unknown username get the same 401, body for body, with WWW-Authenticate', async () => {
    const wrong = await call('POST', '/auth/login', { body: { username: 'alice', password: 'not-hers' } });
    const unknown = await call('POST', '/auth/login', { body: { username: 'nobody', password: 'not-hers' } });
    expect(wrong.headers.get('www-authenticate')).toBe('Bearer');
    expect(await wrong.text()).toBe(await unknown.text());
    expect(unknown.status).toBe(401);
  });
});

describe('users: tokens', () => {
  test('HS256 with the secret works; alg none, HS512, another secret, an expired token, a non-id sub or an unknown user are 401', async () => {
    expect((await call('GET', '/me', { token: await forge(ALICE.id) })).status).toBe(200);
    const refused = [
      new UnsecuredJWT({}).setSubject(ALICE.id).setExpirationTime('1h').encode(),
      await forge(ALICE.id, { alg: 'HS512' }),
      await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject(ALICE.id).setExpirationTime('1h').sign(new TextEncoder().encode('wrong')),
      await forge(ALICE.id, { expiresIn: -60 }),
      await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setSubject(ALICE.id).sign(KEY), // no exp
      await forge('alice'),
      await forge('e'.repeat(24)),
      'not.a.token',
    ];
    for (const token of refused) await expectProblem(await call('GET', '/me', { token }), 401, 'unauthorized');
  });

  test('the stored role decides: a user\'s token claiming admin is 403 on /admin/users; the admin\'s is 200', async () => {
    await expectProblem(await call('GET', '/admin/users', { token: await forge(ALICE.id) }), 403, 'forbidden');
    expect((await call('GET', '/admin/users?limit=2', { token: await forge(ADMIN.id) })).status).toBe(200);
  });
});

describe('users: the order of faults', () => {
  test('PUT /users/:id: token (401), id (400), permission (403) before the body is read; then the body (400), then existence (404)', async () => {
    await expectProblem(await call('PUT', '/users/abc', { body: '{"name":' }), 401, 'unauthorized');
    await expectProblem(await call('PUT', '/users/abc', { body: '{"name":', token: await forge(ALICE.id) }), 400, 'invalid-parameter');
    await expectProblem(await call('PUT', `/users/${BOB.id}`, { body: '{"name":', token: await forge(ALICE.id), type: 'text/plain' }), 403, 'forbidden');
    await expectProblem(await call('PUT', `/users/${ALICE.id}`, { body: { role: 'admin' }, token: await forge(ALICE.id) }), 400, 'invalid-body');
    await expectProblem(await call('PUT', `/users/${'f'.repeat(24)}`, { body: { name: 'X' }, token: await forge(ADMIN.id) }), 404, 'not-found');
    const res = await call('PUT', `/users/${ALICE.id}`, { body: { surname: 'Byron' }, token: await forge(ALICE.id) });
    expect(((await res.json()) as User).surname).toBe('Byron');
  });

  test('DELETE /users/:id: token before id; admin deletes others, a user only themself', async () => {
    await expectProblem(await call('DELETE', '/users/abc'), 401, 'unauthorized');
    await expectProblem(await call('DELETE', '/users/abc', { token: await forge(ADMIN.id) }), 400, 'invalid-parameter');
    await expectProblem(await call('DELETE', `/users/${ADMIN.id}`, { token: await forge(BOB.id) }), 403, 'forbidden');
    expect((await call('DELETE', `/users/${BOB.id}`, { token: await forge(ADMIN.id) })).status).toBe(204);
    await expectProblem(await call('GET', `/users/${BOB.id}`), 404, 'not-found');
  });

  test('/admin/users: token, role, then limit; /users needs no token and checks its limit; 405s need no token', async () => {
    await expectProblem(await call('GET', '/admin/users?limit=0'), 401, 'unauthorized');
    await expectProblem(await call('GET', '/admin/users?limit=0', { token: await forge(ALICE.id) }), 403, 'forbidden');
    await expectProblem(await call('GET', '/admin/users?limit=0', { token: await forge(ADMIN.id) }), 400, 'invalid-parameter');
    for (const limit of ['0', '101', '01', '', '1.5']) await expectProblem(await call('GET', `/users?limit=${limit}`), 400, 'invalid-parameter');
    expect(((await (await call('GET', '/users?limit=1')).json()) as User[]).length).toBe(1);
    await expectProblem(await call('POST', '/me'), 405, 'method-not-allowed');
    await expectProblem(await call('DELETE', '/admin/users'), 405, 'method-not-allowed');
  });
});
