// HTTP behaviour of the app without a database: a fake data layer stands in
// for src/data/forum.js (the real one is exercised against MariaDB by hand,
// see README.md, and by the conformance suite).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildApp } from '../src/app.js';

const comment = (id, userId) => ({ comment_id: id, thread_id: 1, user_id: userId, body: `c${id}`, datemade: '2020-01-01', datelastupdated: null });
const user = { user_id: 1, name: 'u', email: 'u@example.com', phone: '1', datemade: null, datelastupdated: '2021-02-03' };
const fake = {
  async commentById(id) { return id === 1 ? comment(1, 1) : null; },
  async commentsByLimit(limit) { return Array.from({ length: Math.min(limit, 3) }, (_, i) => comment(i + 1, 1)); },
  async firstCommentByUserId(id) { return id === 1 ? { ...comment(1, 1), user } : null; },
  async commentsByUserId(id, limit) { return id === 1 ? [{ ...comment(1, 1), user }].slice(0, limit) : []; },
  async userExists(id) { return id === 1 || id === 3; },
};
const failing = { ...fake, async commentById() { throw new Error('db down'); } };

let server;
let base;
before(async () => {
  server = buildApp({ forum: fake }).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  base = `http://127.0.0.1:${server.address().port}`;
});
after(() => server.close());

const get = (path, init) => fetch(base + path, init);
const gql = (body, type = 'application/json') =>
  fetch(`${base}/graphql`, { method: 'POST', headers: { 'content-type': type }, body: typeof body === 'string' ? body : JSON.stringify(body) });

async function expectProblem(res, status, type) {
  assert.equal(res.status, status);
  assert.match(res.headers.get('content-type'), /^application\/problem\+json/);
  const body = await res.json();
  assert.equal(body.status, status);
  assert.equal(body.type, `urn:fairbench:problem:${type}`);
  assert.equal(typeof body.title, 'string');
}

test('REST happy paths', async () => {
  assert.deepEqual(await (await get('/health')).json(), { status: 'ok' });
  assert.deepEqual(await (await get('/comment/1')).json(), comment(1, 1));
  assert.equal((await (await get('/comments/2')).json()).length, 2);
  assert.deepEqual((await (await get('/user/1/comment')).json()).user, user);
  assert.deepEqual(await (await get('/user/3/comments/5')).json(), []);
});

test('REST 404s: unknown rows, users, paths', async () => {
  await expectProblem(await get('/comment/2'), 404, 'not-found');
  await expectProblem(await get('/user/3/comment'), 404, 'not-found');
  await expectProblem(await get('/user/9/comments/5'), 404, 'not-found');
  for (const path of ['/nope', '/', '/comment', '/user/1/comments', '/users/1/comment', '/comment/1/extra', '/COMMENT/1', '/comment/1/', '/Health']) {
    await expectProblem(await get(path), 404, 'not-found');
  }
  await expectProblem(await get('/GRAPHQL', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }), 404, 'not-found');
});

test('REST 400 for every bad id and limit', async () => {
  for (const bad of ['abc', '1.5', '0', '-1', '01', '2147483648', '1e3']) {
    await expectProblem(await get(`/comment/${bad}`), 400, 'invalid-parameter');
    await expectProblem(await get(`/user/${bad}/comments/5`), 400, 'invalid-parameter');
  }
  for (const bad of ['abc', '0', '101', '01', '1e3']) {
    await expectProblem(await get(`/comments/${bad}`), 400, 'invalid-parameter');
    await expectProblem(await get(`/user/1/comments/${bad}`), 400, 'invalid-parameter');
  }
});

test('a path parameter that is not valid percent-encoding is a 400 naming it', async () => {
  for (const [path, name] of [['/comment/%E0%A4%A', 'id'], ['/comments/%FF', 'limit'], ['/user/%FF/comments/5', 'id'], ['/user/1/comments/%FF', 'limit']]) {
    const res = await get(path);
    assert.equal(res.status, 400);
    assert.match((await res.json()).detail, new RegExp(`'${name}'`));
  }
});

test('405 on known paths, GET /graphql included', async () => {
  await expectProblem(await get('/comment/1', { method: 'POST' }), 405, 'method-not-allowed');
  await expectProblem(await get('/health', { method: 'DELETE' }), 405, 'method-not-allowed');
  await expectProblem(await get('/graphql'), 405, 'method-not-allowed');
});

test('unexpected errors: 500 problem, one stderr line each, the server keeps serving', async () => {
  const failingServer = buildApp({ forum: failing }).listen(0, '127.0.0.1');
  await new Promise((resolve) => failingServer.once('listening', resolve));
  const failingBase = `http://127.0.0.1:${failingServer.address().port}`;
  const original = process.stderr.write;
  let logged = '';
  process.stderr.write = (chunk) => { logged += chunk; return true; };
  try {
    await expectProblem(await fetch(`${failingBase}/comment/1`), 500, 'internal');
    const res = await fetch(`${failingBase}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"query":"{ commentById(id: 1) { body } }"}' });
    assert.equal(res.status, 200);
    const body = await res.json();
    assert.equal(body.errors[0].extensions.code, 'INTERNAL_SERVER_ERROR');
    assert.equal(body.errors[0].message.includes('db down'), false);
    assert.equal((await fetch(`${failingBase}/health`)).status, 200);
  } finally {
    process.stderr.write = original;
    failingServer.close();
  }
  const lines = logged.trim().split('\n');
  assert.equal(lines.length, 2);
  for (const line of lines) assert.match(JSON.parse(line).error, /db down/);
});

test('GraphQL data, null for not found, BAD_USER_INPUT for bad arguments', async () => {
  let res = await gql({ query: '{ commentById(id: 1) { comment_id } missing: commentById(id: "2") { comment_id } }' });
  assert.equal(res.status, 200);
  assert.match(res.headers.get('content-type'), /^application\/json/);
  assert.deepEqual(await res.json(), { data: { commentById: { comment_id: 1 }, missing: null } });

  res = await gql({ query: '{ commentsByUserId(id: 9, limit: 5) { comment_id } none: commentsByUserId(id: 3, limit: 5) { comment_id } }' });
  assert.deepEqual(await res.json(), { data: { commentsByUserId: null, none: [] } });

  for (const [field, args] of [['commentById', 'id: "x"'], ['commentById', 'id: 0'], ['commentsByLimit', 'limit: 0'], ['commentsByLimit', 'limit: 101']]) {
    res = await gql({ query: `{ ${field}(${args}) { comment_id } }` });
    assert.equal(res.status, 200);
    const body = await res.json();
    assert.equal(body.data[field], null);
    assert.equal(body.errors[0].extensions.code, 'BAD_USER_INPUT');
    assert.deepEqual(body.errors[0].path, [field]);
  }
});

test('GraphQL request errors: 400, errors and no data', async () => {
  const cases = [
    {},
    { query: '{ commentById(id: 1) { comment_id }' },
    { query: '{ nope }' },
    { query: `{ ${Array.from({ length: 11 }, (_, i) => `a${i}: __typename`).join(' ')} }` },
    { query: 'query Q($l: Int!) { commentsByLimit(limit: $l) { comment_id } }', variables: { l: 'x' } },
    { query: 'query A { __typename } query B { __typename }' },
  ];
  for (const body of cases) {
    const res = await gql(body);
    assert.equal(res.status, 400, JSON.stringify(body));
    assert.match(res.headers.get('content-type'), /^application\/json/);
    const json = await res.json();
    assert.ok(Array.isArray(json.errors) && json.errors.length > 0);
    assert.equal('data' in json, false);
  }
});

test('GraphQL HTTP-level errors are problems: malformed JSON 400, over 64 KiB 413, non-JSON 415', async () => {
  await expectProblem(await gql('{"query": '), 400, 'malformed-body');
  await expectProblem(await gql(JSON.stringify({ query: '{ __typename }', pad: 'x'.repeat(70 * 1024) })), 413, 'payload-too-large');
  await expectProblem(await gql('{ __typename }', 'text/plain'), 415, 'unsupported-media-type');
  await expectProblem(await gql('{ __typename }', 'application/graphql'), 415, 'unsupported-media-type');
});
