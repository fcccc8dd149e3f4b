// HTTP behaviour of the Hapi server without a database: an in-memory data layer stands in for
// src/data/documents.js (the real one runs against FerretDB in the conformance suite).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from '../src/app.js';

const ID = '6650f1c2a1b2c3d4e5f60718';
const OTHER = '6650f1c2a1b2c3d4e5f60719';
const text = 'x'.repeat(1000);
const record = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`a${i}`, 'r'.repeat(100)]));
const table = Array.from({ length: 50 }, () => Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`c${i}`, 't'.repeat(50)])));
const list = Array.from({ length: 100 }, () => 'l'.repeat(100));

function memoryData(fail = false) {
  const docs = new Map([[ID, { kind: 'text', payload: text }]]);
  let next = 0x100;
  const check = () => { if (fail) throw new Error('db down'); };
  return {
    docs,
    async create(body) { check(); const id = (next++).toString(16).padStart(24, '0'); docs.set(id, body); return { id, ...body }; },
    async get(id) { check(); return docs.has(id) ? { id, ...docs.get(id) } : null; },
    async replace(id, body) { check(); if (!docs.has(id)) return null; docs.set(id, body); return { id, ...body }; },
    async remove(id) { check(); return docs.delete(id); },
  };
}

let server;
let data;
before(async () => {
  data = memoryData();
  server = await createServer({ port: 0, host: '127.0.0.1', apis: { documents: data } });
});
after(() => server.stop());

const inject = (method, url, payload, headers = {}) =>
  server.inject({ method, url, ...(payload !== undefined ? { payload: typeof payload === 'string' ? payload : JSON.stringify(payload), headers: { 'content-type': 'application/json', ...headers } } : { headers }) });

function expectProblem(res, status, type) {
  assert.equal(res.statusCode, status, res.payload);
  assert.match(res.headers['content-type'], /^application\/problem\+json/);
  const body = JSON.parse(res.payload);
  assert.deepEqual({ type: body.type, status: body.status }, { type: `urn:fairbench:problem:${type}`, status });
  assert.equal(typeof body.title, 'string');
  assert.match(res.headers['server-timing'], /^app;dur=\d+\.\d{3}$/);
}

test('create, read, replace (kind may change), delete, then 404', async () => {
  for (const [kind, payload] of Object.entries({ text, list, record, table })) {
    const created = await inject('POST', '/documents', { kind, payload });
    assert.equal(created.statusCode, 201, created.payload);
    const body = JSON.parse(created.payload);
    assert.deepEqual(body, { id: body.id, kind, payload });
    assert.equal(created.headers.location, `/documents/${body.id}`);
    assert.match(created.headers['server-timing'], /^app;dur=\d+\.\d{3}$/);
    assert.deepEqual(JSON.parse((await inject('GET', `/documents/${body.id}`)).payload), body);
    const replaced = await inject('PUT', `/documents/${body.id}`, { kind: 'text', payload: text });
    assert.deepEqual(JSON.parse(replaced.payload), { id: body.id, kind: 'text', payload: text });
    const removed = await inject('DELETE', `/documents/${body.id}`);
    assert.equal(removed.statusCode, 204);
    assert.equal(removed.payload, '');
    expectProblem(await inject('GET', `/documents/${body.id}`), 404, 'not-found');
  }
});

test('bad bodies are 400 invalid-body and store nothing', async () => {
  const before = data.docs.size;
  const bad = [
    { kind: 'text', payload: text.slice(1) },
    { kind: 'text', payload: `${text.slice(1)}é` },
    { kind: 'list', payload: list.slice(1) },
    { kind: 'record', payload: { ...record, extra: 'r'.repeat(100) } },
    { kind: 'record', payload: { ...Object.fromEntries(Object.entries(record).slice(1)), 'a.b': 'r'.repeat(100) } },
    { kind: 'table', payload: list },
    { kind: 'blob', payload: text },
    { kind: 'text' },
    { payload: text },
    { kind: 'text', payload: text, id: ID },
    [1, 2],
    JSON.stringify('a JSON string, not an object'),
  ];
  for (const body of bad) expectProblem(await inject('POST', '/documents', body), 400, 'invalid-body');
  expectProblem(await inject('POST', '/documents', ''), 400, 'invalid-body');
  expectProblem(await inject('PUT', `/documents/${ID}`, { kind: 'list', payload: text }), 400, 'invalid-body');
  assert.equal(data.docs.size, before);
  assert.equal(data.docs.get(ID).payload, text);
});

test('HTTP-level errors: malformed JSON, 413, 415, bad ids, unknown paths, other methods', async () => {
  expectProblem(await inject('POST', '/documents', '{"kind": "text", '), 400, 'malformed-body');
  expectProblem(await inject('POST', '/documents', JSON.stringify({ kind: 'text', payload: 'x'.repeat(600 * 1024) })), 413, 'payload-too-large');
  expectProblem(await inject('POST', '/documents', JSON.stringify({ kind: 'text', payload: text }), { 'content-type': 'text/plain' }), 415, 'unsupported-media-type');
  expectProblem(await server.inject({ method: 'POST', url: '/documents', payload: JSON.stringify({ kind: 'text', payload: text }) }), 415, 'unsupported-media-type');
  for (const bad of ['abc', ID.toUpperCase(), `${ID}0`, ID.slice(1), 'aaaaaaaaaaaa']) {
    expectProblem(await inject('GET', `/documents/${bad}`), 400, 'invalid-parameter');
    expectProblem(await inject('DELETE', `/documents/${bad}`), 400, 'invalid-parameter');
    expectProblem(await inject('PUT', `/documents/${bad}`, { kind: 'text', payload: text }), 400, 'invalid-parameter');
  }
  expectProblem(await inject('GET', `/documents/${OTHER}`), 404, 'not-found');
  expectProblem(await inject('PUT', `/documents/${OTHER}`, { kind: 'text', payload: text }), 404, 'not-found');
  expectProblem(await inject('DELETE', `/documents/${OTHER}`), 404, 'not-found');
  for (const path of ['/', '/documents/', `/Documents/${ID}`, `/documents/${ID}/x`, '/comment/1', '/users']) expectProblem(await inject('GET', path), 404, 'not-found');
  for (const [method, path, allow] of [['GET', '/documents', 'POST'], ['PATCH', `/documents/${ID}`, 'GET, HEAD, PUT, DELETE'], ['POST', `/documents/${ID}`, 'GET, HEAD, PUT, DELETE'], ['DELETE', '/health', 'GET, HEAD']]) {
    const res = await inject(method, path);
    expectProblem(res, 405, 'method-not-allowed');
    assert.equal(res.headers.allow, allow);
  }
  assert.deepEqual(JSON.parse((await inject('GET', '/health')).payload), { status: 'ok' });
});

test('a database failure is a 500 problem without internals and one stderr line', async () => {
  const failing = await createServer({ port: 0, host: '127.0.0.1', apis: { documents: memoryData(true) } });
  const original = process.stderr.write;
  let logged = '';
  process.stderr.write = (chunk) => { logged += chunk; return true; };
  try {
    const res = await failing.inject({ method: 'GET', url: `/documents/${ID}` });
    expectProblem(res, 500, 'internal');
    assert.equal(res.payload.includes('db down'), false);
  } finally {
    process.stderr.write = original;
  }
  assert.equal(logged.trim().split('\n').length, 1);
  assert.match(JSON.parse(logged).error, /db down/);
});
