// The documents API without a database: routing, the order of faults (bytes, id, shape),
// validation of the four kinds, problem mapping and Server-Timing over a fake data layer; and
// the MongoDB driver's errors that mean "unavailable" (503), not a bug (500).
import { describe, expect, test } from 'bun:test';
import mongoose from 'mongoose';
import { buildApp } from '../src/app.ts';
import { nestedDeeperThan } from '../src/body.ts';
import { loadConfig } from '../src/config.ts';
import type { DocumentsData } from '../src/documents/data.ts';
import type { DocumentInput, StoredDocument } from '../src/documents/schemas.ts';
import { mongoUnavailable } from '../src/mongo.ts';

const ID = '6650f1c2a1b2c3d4e5f60718';
const FAIL_ID = '0000000000000000000000ff'; // the fake's database error
const GONE_ID = '0000000000000000000000aa'; // the fake's unavailable database

const ascii = (n: number, seed = 0) => Array.from({ length: n }, (_, i) => String.fromCharCode(32 + ((i + seed) % 95))).join('');
const attrs = (count: number, length: number) => Object.fromEntries(Array.from({ length: count }, (_, i) => [`a${i}`, ascii(length, i)]));
const VALID: Record<string, DocumentInput> = {
  text: { kind: 'text', payload: ascii(1000) },
  list: { kind: 'list', payload: Array.from({ length: 100 }, (_, i) => ascii(100, i)) },
  record: { kind: 'record', payload: attrs(100, 100) },
  table: { kind: 'table', payload: Array.from({ length: 50 }, () => attrs(50, 50)) },
};

function fakeData() {
  const store = new Map<string, StoredDocument>([[ID, { id: ID, ...VALID.text! }]]);
  const calls: string[] = [];
  const check = (id: string) => {
    if (id === FAIL_ID) throw new Error('the database went away');
    if (id === GONE_ID) throw new mongoose.mongo.MongoServerSelectionError('server selection timed out', { type: 'Unknown' } as never);
  };
  const data = {
    async create(body: DocumentInput) {
      calls.push('create');
      const document = { id: 'aaaaaaaaaaaaaaaaaaaaaaaa', ...body };
      store.set(document.id, document);
      return document;
    },
    async get(id: string) {
      calls.push('get');
      check(id);
      return store.get(id) ?? null;
    },
    async replace(id: string, body: DocumentInput) {
      calls.push('replace');
      check(id);
      if (!store.has(id)) return null;
      store.set(id, { id, ...body });
      return store.get(id)!;
    },
    async remove(id: string) {
      calls.push('remove');
      check(id);
      return store.delete(id);
    },
  };
  return { calls, data: data as DocumentsData };
}

const fake = fakeData();
const app = buildApp({ documents: fake.data });
const request = (method: string, path: string, body?: unknown, type: string | null = 'application/json') =>
  app.handle(
    new Request(`http://localhost${path}`, {
      method,
      ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
      headers: type === null ? {} : { 'content-type': type },
    }),
  );

async function expectProblem(res: Response, status: number, type: string) {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toStartWith('application/problem+json');
  expect(((await res.json()) as { type: string }).type).toBe(`urn:fairbench:problem:${type}`);
  expect(res.headers.get('server-timing')).toMatch(/^app;dur=\d+\.\d{3}$/);
}

describe('documents routes', () => {
  test('every kind is created (201, Location), read, replaced and deleted (204, no body), each with Server-Timing', async () => {
    for (const body of Object.values(VALID)) {
      const created = await request('POST', '/documents', body);
      expect(created.status).toBe(201);
      expect(created.headers.get('location')).toBe('/documents/aaaaaaaaaaaaaaaaaaaaaaaa');
      expect(created.headers.get('server-timing')).toMatch(/^app;dur=\d+\.\d{3}$/);
      expect(await created.json()).toEqual({ id: 'aaaaaaaaaaaaaaaaaaaaaaaa', ...body });
      const replaced = await request('PUT', `/documents/${ID}`, body);
      expect(replaced.status).toBe(200);
      expect(await replaced.json()).toEqual({ id: ID, ...body });
    }
    const read = await request('GET', `/documents/${ID}`);
    expect(read.status).toBe(200);
    expect(((await read.json()) as StoredDocument).kind).toBe('table');
    const deleted = await request('DELETE', `/documents/${ID}`);
    expect(deleted.status).toBe(204);
    expect(await deleted.text()).toBe('');
    expect(deleted.headers.get('server-timing')).toMatch(/^app;dur=\d+\.\d{3}$/);
    await expectProblem(await request('GET', `/documents/${ID}`), 404, 'not-found');
    await expectProblem(await request('PUT', `/documents/${ID}`, VALID.list), 404, 'not-found');
    await expectProblem(await request('DELETE', `/documents/${ID}`), 404, 'not-found');
  });

  test('bodies off the kinds\' exact shapes are 400 invalid-body and never reach the data layer', async () => {
    const before = fake.calls.length;
    const bad: unknown[] = [
      { kind: 'text', payload: ascii(999) },
      { kind: 'text', payload: 'é'.repeat(1000) },
      { kind: 'list', payload: (VALID.list!.payload as string[]).slice(1) },
      { kind: 'record', payload: { ...attrs(99, 100), 'a.b': ascii(100) } },
      { kind: 'record', payload: { ...attrs(99, 100), $where: ascii(100) } },
      { kind: 'record', payload: { ...attrs(99, 100), [`a${'b'.repeat(32)}`]: ascii(100) } },
      { kind: 'table', payload: (VALID.table!.payload as object[]).slice(1) },
      { kind: 'list', payload: VALID.text!.payload },
      { kind: 'other', payload: 'x' },
      { ...VALID.text, id: ID },
      { payload: VALID.text!.payload },
      [VALID.text],
      'text',
      null,
    ];
    for (const body of bad) await expectProblem(await request('POST', '/documents', JSON.stringify(body)), 400, 'invalid-body');
    await expectProblem(await request('POST', '/documents', ''), 400, 'invalid-body');
    expect(fake.calls.length).toBe(before);
  });

  test('faults in the spec\'s order: the body\'s bytes (413, 415, malformed) before the id, the id before the body\'s shape', async () => {
    await expectProblem(await request('PUT', '/documents/abc', `"${'x'.repeat(600 * 1024)}"`), 413, 'payload-too-large');
    await expectProblem(await request('PUT', '/documents/abc', VALID.text, 'text/plain'), 415, 'unsupported-media-type');
    await expectProblem(await request('POST', '/documents', VALID.text, null), 415, 'unsupported-media-type');
    await expectProblem(await request('PUT', '/documents/abc', '{"kind":'), 400, 'malformed-body');
    await expectProblem(await request('PUT', '/documents/abc', {}), 400, 'invalid-parameter');
    for (const id of ['abc', ID.toUpperCase(), `${ID}0`, 'aaaaaaaaaaaa']) await expectProblem(await request('GET', `/documents/${id}`), 400, 'invalid-parameter');
  });

  test('routing: exact paths (404), other methods (405 with Allow)', async () => {
    for (const path of ['/documents/', `/documents/${ID}/`, '/Documents', `/documents/${ID}/payload`]) await expectProblem(await request('GET', path), 404, 'not-found');
    const wrong = await request('GET', '/documents');
    expect(wrong.headers.get('allow')).toBe('POST');
    await expectProblem(wrong, 405, 'method-not-allowed');
    await expectProblem(await request('PATCH', `/documents/${ID}`, {}), 405, 'method-not-allowed');
  });

  test('a database error is a 500 problem; an unavailable database a 503 with Retry-After', async () => {
    await expectProblem(await request('GET', `/documents/${FAIL_ID}`), 500, 'internal');
    const gone = await request('DELETE', `/documents/${GONE_ID}`);
    expect(gone.headers.get('retry-after')).toBe('1');
    await expectProblem(gone, 503, 'unavailable');
  });

  test('without a MongoDB the documents routes are unknown paths', async () => {
    const res = await buildApp({}).handle(new Request(`http://localhost/documents/${ID}`));
    await expectProblem(res, 404, 'not-found');
  });
});

describe('MongoDB errors and configuration', () => {
  test('network errors, server selection and a pool checkout timeout mean unavailable; a server error does not', () => {
    expect(mongoUnavailable(new mongoose.mongo.MongoNetworkTimeoutError('socket timed out'))).toBe(true);
    expect(mongoUnavailable(Object.assign(new Error('timed out'), { name: 'MongoWaitQueueTimeoutError' }))).toBe(true);
    expect(mongoUnavailable(new mongoose.mongo.MongoServerError({ message: 'duplicate key', code: 11000 }))).toBe(false);
    expect(mongoUnavailable(undefined)).toBe(false);
  });

  test('MONGO_URL (with JWT_SECRET) serves documents; a wrong scheme or no database is refused; no URL at all is refused', () => {
    const base = { PORT: '8080', DB_POOL_SIZE: '10' };
    expect(loadConfig({ ...base, MONGO_URL: 'mongodb://127.0.0.1:27017/docs', JWT_SECRET: 's' }).mongoUrl).toBe('mongodb://127.0.0.1:27017/docs');
    expect(() => loadConfig({ ...base, MONGO_URL: 'mongodb://127.0.0.1:27017/docs' })).toThrow(/JWT_SECRET is required/);
    expect(() => loadConfig({ ...base, MONGO_URL: 'http://127.0.0.1/docs' })).toThrow(/mongodb: scheme/);
    expect(() => loadConfig({ ...base, MONGO_URL: 'mongodb://127.0.0.1:27017' })).toThrow(/must name a database/);
    expect(() => loadConfig(base)).toThrow(/no API has a database/);
  });
});

describe('body depth (issue 41)', () => {
  test('100,000 nested arrays are a 400 invalid-body, not a stack overflow in the validation error (500)', async () => {
    const body = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    await expectProblem(await request('POST', '/documents', body), 400, 'invalid-body');
  });
  test('the depth scan counts only brackets outside strings, escapes included', () => {
    expect(nestedDeeperThan(JSON.stringify({ a: '['.repeat(100) }), 2)).toBe(false);
    expect(nestedDeeperThan(JSON.stringify({ a: '\\"[[[' }), 1)).toBe(false);
    expect(nestedDeeperThan('[[[]]]', 3)).toBe(false);
    expect(nestedDeeperThan('[[[[]]]]', 3)).toBe(true);
  });
});
