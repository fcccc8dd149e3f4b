// The forum API without a database: the REST parameter rules through the routes' joi
// schemas, and POST /graphql (graphql-js behind the Hapi route) over a stand-in data layer:
// request errors (400 {errors}, no data), field errors (200, BAD_USER_INPUT), the root-field
// and depth limits, and a resolver's failure reported without internals. The SQL runs
// against MariaDB in the conformance suite.
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { buildSchema, printSchema } from 'graphql';
import { createServer } from '../src/app.js';
import { schema } from '../src/graphql/schema.js';

const comment = (id) => ({ comment_id: id, thread_id: 1, user_id: 7, body: `comment ${id}`, datemade: '2020-01-02', datelastupdated: null });
const user = { user_id: 7, name: 'Ada', email: 'ada@example.com', phone: '555', datemade: null, datelastupdated: '2021-03-04' };
const data = {
  calls: [],
  async commentById(id) { this.calls.push(['commentById', id]); if (id === 666) throw new Error('db down'); return id <= 100 ? comment(id) : null; },
  async commentsByLimit(limit) { this.calls.push(['commentsByLimit', limit]); return Array.from({ length: limit }, (_, i) => comment(i + 1)); },
  async firstCommentOfUser(id) { this.calls.push(['firstCommentOfUser', id]); return id === 7 ? { ...comment(1), user } : null; },
  async commentsOfUser(id, limit) { this.calls.push(['commentsOfUser', id, limit]); return id === 7 ? [{ ...comment(1), user }].slice(0, limit) : id === 8 ? [] : null; },
};

let server;
before(async () => {
  server = await createServer({ port: 0, host: '127.0.0.1', apis: { forum: data } });
});

const get = (url) => server.inject({ method: 'GET', url });
const graphql = (body, headers = { 'content-type': 'application/json' }) =>
  server.inject({ method: 'POST', url: '/graphql', payload: typeof body === 'string' ? body : JSON.stringify(body), headers });

function expectProblem(res, status, type) {
  assert.equal(res.statusCode, status, res.payload);
  assert.match(res.headers['content-type'], /^application\/problem\+json/);
  assert.equal(JSON.parse(res.payload).type, `urn:fairbench:problem:${type}`);
  assert.match(res.headers['server-timing'], /^app;dur=\d+\.\d{3}$/);
}

function expectRequestError(res) {
  assert.equal(res.statusCode, 400, res.payload);
  const body = JSON.parse(res.payload);
  assert.deepEqual(Object.keys(body), ['errors']);
  assert.ok(body.errors.length > 0 && body.errors.every((e) => typeof e.message === 'string'));
}

test('the embedded SDL is the type system of spec/schema.graphql', () => {
  const spec = buildSchema(readFileSync(new URL('../../../spec/schema.graphql', import.meta.url), 'utf8'));
  assert.equal(printSchema(schema), printSchema(spec));
});

test('REST: the four reads, 404s, [] for a user without comments', async () => {
  assert.deepEqual(JSON.parse((await get('/comment/5')).payload), comment(5));
  expectProblem(await get('/comment/101'), 404, 'not-found');
  assert.equal(JSON.parse((await get('/comments/3')).payload).length, 3);
  assert.deepEqual(JSON.parse((await get('/user/7/comment')).payload), { ...comment(1), user });
  expectProblem(await get('/user/9/comment'), 404, 'not-found');
  assert.deepEqual(JSON.parse((await get('/user/8/comments/5')).payload), []);
  expectProblem(await get('/user/9/comments/5'), 404, 'not-found');
  assert.deepEqual(data.calls.at(-1), ['commentsOfUser', 9, 5]);
  assert.equal((await server.inject({ method: 'HEAD', url: '/comment/5' })).statusCode, 200);
});

test('REST: parameters outside the rules are 400 invalid-parameter before any query', async () => {
  const before = data.calls.length;
  for (const id of ['abc', '0', '-1', '01', '+1', '1.5', '2147483648', '99999999999', '1e3', '%20%31', '%EF%BC%91']) expectProblem(await get(`/comment/${id}`), 400, 'invalid-parameter');
  for (const limit of ['0', '101', '01', '1000000']) {
    expectProblem(await get(`/comments/${limit}`), 400, 'invalid-parameter');
    expectProblem(await get(`/user/1/comments/${limit}`), 400, 'invalid-parameter');
  }
  expectProblem(await get('/user/2147483648/comment'), 400, 'invalid-parameter');
  assert.equal(data.calls.length, before);
  assert.equal((await get('/comment/2147483647')).statusCode, 404);
  for (const path of ['/comment', '/comment/1/extra', '/COMMENT/1', '/user/1/comments', '/comments/']) expectProblem(await get(path), 404, 'not-found');
  for (const [method, url, allow] of [['POST', '/comment/1', 'GET, HEAD'], ['DELETE', '/user/1/comments/5', 'GET, HEAD'], ['GET', '/graphql', 'POST']]) {
    const res = await server.inject({ method, url });
    expectProblem(res, 405, 'method-not-allowed');
    assert.equal(res.headers.allow, allow);
  }
});

test('GraphQL: answers, nulls without errors, variables, field errors', async () => {
  const ok = await graphql({ query: 'query Q($id: ID!) { commentById(id: $id) { comment_id body } missing: commentById(id: "101") { body } }', variables: { id: '5' } });
  assert.equal(ok.statusCode, 200);
  assert.deepEqual(JSON.parse(ok.payload), { data: { commentById: { comment_id: 5, body: 'comment 5' }, missing: null } });
  const joined = JSON.parse((await graphql({ query: '{ commentsByUserId(id: 7, limit: 5) { user { name } } none: commentsByUserId(id: 9, limit: 5) { body } empty: commentsByUserId(id: 8, limit: 5) { body } }' })).payload);
  assert.deepEqual(joined, { data: { commentsByUserId: [{ user: { name: 'Ada' } }], none: null, empty: [] } });
  for (const args of ['id: "abc"', 'id: 0', 'id: "01"', 'id: "2147483648"', 'id: -1']) {
    const res = await graphql({ query: `{ commentById(${args}) { body } }` });
    assert.equal(res.statusCode, 200, res.payload);
    const body = JSON.parse(res.payload);
    assert.equal(body.data.commentById, null);
    assert.deepEqual([body.errors[0].path, body.errors[0].extensions.code], [['commentById'], 'BAD_USER_INPUT']);
  }
  const limit = JSON.parse((await graphql({ query: '{ commentsByLimit(limit: 101) { body } }' })).payload);
  assert.equal(limit.errors[0].extensions.code, 'BAD_USER_INPUT');
});

test('GraphQL: request errors are 400 {errors} without data; HTTP errors are problems', async () => {
  const requestErrors = [
    {}, { query: 42 }, { query: '' }, [{ query: '{ commentById(id: 1) { body } }' }], 'null',
    { query: '{ commentById(id: 1) { body } }', variables: '{}' }, { query: '{ commentById(id: 1) { body } }', variables: [1] },
    { query: 'query A { commentById(id: 1) { body } }', operationName: { name: 'A' } },
    { query: '{ commentById(id: 1) { body }' }, { query: '{ commentById(id: 1) { body password } }' }, { query: '{ commentById(id: 1) }' },
    { query: '{ commentsByLimit(limit: "ten") { body } }' }, { query: 'query Q($limit: Int!) { commentsByLimit(limit: $limit) { body } }', variables: { limit: 'x' } },
    { query: 'query Q($limit: Int!) { commentsByLimit(limit: $limit) { body } }' }, { query: 'query A { commentById(id: 1) { body } }', operationName: 'B' },
    { query: 'query A { commentById(id: 1) { body } } query B { commentById(id: 2) { body } }' }, { query: 'mutation { deleteComment(id: 1) }' },
    { query: `{ ${'{'.repeat(5000)} }` },
  ];
  for (const body of requestErrors) expectRequestError(await graphql(body));
  expectRequestError(await server.inject({ method: 'POST', url: '/graphql', headers: { 'content-type': 'application/json' } }));
  expectProblem(await graphql('{"query": '), 400, 'malformed-body');
  expectProblem(await graphql({ query: 'x'.repeat(70 * 1024) }), 413, 'payload-too-large');
  expectProblem(await graphql('{ commentById(id: 1) { body } }', { 'content-type': 'text/plain' }), 415, 'unsupported-media-type');
});

test('GraphQL limits: 10 root fields and depth 15 pass; 11 and 16 are request errors, fragments expanded', async () => {
  const roots = (n) => `{ ${Array.from({ length: n }, (_, i) => `a${i}: commentsByLimit(limit: 1) { body }`).join(' ')} }`;
  assert.equal((await graphql({ query: roots(10) })).statusCode, 200);
  expectRequestError(await graphql({ query: roots(11) }));
  const viaFragment = `{ ...F } fragment F on Query { ${Array.from({ length: 11 }, (_, i) => `a${i}: commentById(id: 1) { body }`).join(' ')} }`;
  expectRequestError(await graphql({ query: viaFragment }));
  const deep = (n) => `{ __schema { types { fields { type { ${'ofType { '.repeat(n - 5)}name${' }'.repeat(n - 5)} } } } } }`;
  assert.equal((await graphql({ query: deep(15) })).statusCode, 200);
  expectRequestError(await graphql({ query: deep(16) }));
  const cycle = await graphql({ query: '{ ...A } fragment A on Query { ...B } fragment B on Query { ...A }' });
  expectRequestError(cycle);
});

test('GraphQL: a resolver\'s failure is logged once and reported without internals', async () => {
  const original = process.stderr.write;
  let logged = '';
  process.stderr.write = (chunk) => { logged += chunk; return true; };
  let res;
  try {
    res = await graphql({ query: '{ commentById(id: 666) { body } }' });
  } finally {
    process.stderr.write = original;
  }
  assert.equal(res.statusCode, 200);
  const body = JSON.parse(res.payload);
  assert.deepEqual(body.errors[0].extensions, { code: 'INTERNAL_SERVER_ERROR' });
  assert.equal(res.payload.includes('db down'), false);
  assert.match(logged, /db down/);
});
