// The documents API's HTTP behaviour without a database: an in-memory data layer stands in
// for src/data/documents.js (the real one runs against FerretDB in the conformance suite).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildApp } from '../src/app.js';

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

async function listen(app) {
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return { server, base: `http://127.0.0.1:${server.address().port}` };
}

let server;
let base;
let data;
before(async () => {
  data = memoryData();
  ({ server, base } = await listen(buildApp({ documents: data })));
});
after(() => server.close());

const send = (method, path, body, headers = {}) =>
  fetch(base + path, { method, ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body), headers: { 'content-type': 'application/json', ...headers } } : { headers }) });

async function expectProblem(res, status, type) {
  assert.equal(res.status, status);
  assert.match(res.headers.get('content-type'), /^application\/problem\+json/);
  const body = await res.json();
  assert.deepEqual({ type: body.type, status: body.status }, { type: `urn:fairbench:problem:${type}`, status });
  assert.match(res.headers.get('server-timing'), /^app;dur=\d+\.\d{3}$/);
}

test('create, read, replace (kind may change), delete, then 404', async () => {
  for (const [kind, payload] of Object.entries({ text, list, record, table })) {
    const created = await send('POST', '/documents', { kind, payload });
    assert.equal(created.status, 201);
    const body = await created.json();
    assert.deepEqual(body, { id: body.id, kind, payload });
    assert.equal(created.headers.get('location'), `/documents/${body.id}`);
    assert.match(created.headers.get('server-timing'), /^app;dur=\d+\.\d{3}$/);
    assert.deepEqual(await (await send('GET', `/documents/${body.id}`)).json(), body);
    const replaced = await send('PUT', `/documents/${body.id}`, { kind: 'text', payload: text });
    assert.deepEqual(await replaced.json(), { id: body.id, kind: 'text', payload: text });
    const removed = await send('DELETE', `/documents/${body.id}`);
    assert.equal(removed.status, 204);
    assert.equal(await removed.text(), '');
    await expectProblem(await send('GET', `/documents/${body.id}`), 404, 'not-found');
  }
});

test('bad bodies are 400 invalid-body and store nothing', async () => {
  const count = data.docs.size;
  const bad = [
    { kind: 'text', payload: text.slice(1) },
    { kind: 'text', payload: `${text.slice(1)}é` },
    { kind: 'list', payload: list.slice(1) },
    { kind: 'record', payload: { ...record, extra: 'r'.repeat(100) } },
    { kind: 'record', payload: { ...Object.fromEntries(Object.entries(record).slice(1)), 'a.b': 'r'.repeat(100) } },
    { kind: 'table', payload: list },
    { kind: 'blob', payload: text },
    { kind: 'text' },
    { kind: 'text', payload: text, id: ID },
    [1, 2],
    JSON.stringify('a JSON string, not an object'),
    '',
  ];
  for (const body of bad) await expectProblem(await send('POST', '/documents', body), 400, 'invalid-body');
  await expectProblem(await send('PUT', `/documents/${ID}`, { kind: 'list', payload: text }), 400, 'invalid-body');
  assert.equal(data.docs.size, count);
  assert.equal(data.docs.get(ID).payload, text);
});

test('HTTP-level errors: malformed JSON, 413, 415 (also without Content-Type), bad ids, unknown paths, other methods', async () => {
  await expectProblem(await send('POST', '/documents', '{"kind": "text", '), 400, 'malformed-body');
  await expectProblem(await send('POST', '/documents', { kind: 'text', payload: 'x'.repeat(600 * 1024) }), 413, 'payload-too-large');
  await expectProblem(await send('POST', '/documents', JSON.stringify({ kind: 'text', payload: text }), { 'content-type': 'text/plain' }), 415, 'unsupported-media-type');
  await expectProblem(await fetch(`${base}/documents`, { method: 'POST', body: new TextEncoder().encode(JSON.stringify({ kind: 'text', payload: text })) }), 415, 'unsupported-media-type');
  for (const bad of ['abc', ID.toUpperCase(), `${ID}0`, ID.slice(1), 'aaaaaaaaaaaa']) {
    await expectProblem(await send('GET', `/documents/${bad}`), 400, 'invalid-parameter');
    await expectProblem(await send('DELETE', `/documents/${bad}`), 400, 'invalid-parameter');
    await expectProblem(await send('PUT', `/documents/${bad}`, {}), 400, 'invalid-parameter');
  }
  await expectProblem(await send('GET', `/documents/${OTHER}`), 404, 'not-found');
  await expectProblem(await send('PUT', `/documents/${OTHER}`, { kind: 'text', payload: text }), 404, 'not-found');
  await expectProblem(await send('DELETE', `/documents/${OTHER}`), 404, 'not-found');
  for (const path of ['/documents/', `/Documents/${ID}`, `/documents/${ID}/x`, '/comment/1']) await expectProblem(await send('GET', path), 404, 'not-found');
  for (const [method, path, allow] of [['GET', '/documents', 'POST'], ['PATCH', `/documents/${ID}`, 'GET, HEAD, PUT, DELETE'], ['POST', `/documents/${ID}`, 'GET, HEAD, PUT, DELETE']]) {
    const res = await send(method, path);
    await expectProblem(res, 405, 'method-not-allowed');
    assert.equal(res.headers.get('allow'), allow);
  }
});

test('a database failure is a 500 problem without internals', async () => {
  const failing = await listen(buildApp({ documents: memoryData(true) }));
  const original = process.stderr.write;
  let logged = '';
  process.stderr.write = (chunk) => { logged += chunk; return true; };
  try {
    const res = await fetch(`${failing.base}/documents/${ID}`);
    assert.equal(res.status, 500);
    assert.equal((await res.text()).includes('db down'), false);
  } finally {
    process.stderr.write = original;
    failing.server.close();
  }
  assert.match(JSON.parse(logged.trim().split('\n')[0]).error, /db down/);
});
