// The checkers must be able to fail: each one is shown a response with a
// defect of the kind the suite exists to catch.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { graphqlResponseProblems, loadSpecSchema } from '../src/spec/graphql.ts';
import { OpenApiValidator } from '../src/spec/openapi.ts';
import type { HttpResponse } from '../src/http.ts';
import { ForumOracle } from '@fairbench/apis/forum/conformance/oracle.ts';
import { generateForum } from '@fairbench/apis/forum/dataset/generate.ts';
import { CONFORMANCE_SCALE } from '@fairbench/apis/forum/dataset/model.ts';

const comment = { comment_id: 1, thread_id: 1, user_id: 1, body: 'a b c', datemade: '2021-01-02', datelastupdated: null };
const json = (status: number, body: unknown, mediaType = 'application/json'): HttpResponse => ({
  status,
  mediaType,
  headers: new Headers(),
  text: JSON.stringify(body),
  json: body,
  ms: 0,
});
const get = (path: string) => ({ method: 'GET', path });

test('OpenAPI: a conforming comment passes; renamed, extra, mistyped fields and undeclared statuses fail', async () => {
  const v = await OpenApiValidator.load();
  assert.deepEqual(v.problems(get('/comment/1'), json(200, comment)), []);
  const { comment_id, ...rest } = comment;
  assert.notDeepEqual(v.problems(get('/comment/1'), json(200, { ...rest, commentId: comment_id })), []);
  assert.notDeepEqual(v.problems(get('/comment/1'), json(200, { ...comment, extra: 1 })), []);
  assert.notDeepEqual(v.problems(get('/comment/1'), json(200, { ...comment, comment_id: '1' })), []);
  assert.notDeepEqual(v.problems(get('/comment/1'), json(200, { ...comment, datemade: '2021-01-02T00:00:00.000Z' })), []);
  assert.notDeepEqual(v.problems(get('/comment/1'), json(200, comment, 'text/html')), []);
  assert.notDeepEqual(v.problems(get('/comment/1'), json(418, comment)), []);
  assert.equal(v.problems(get('/no/such/path'), json(404, {})), null);
});

test('OpenAPI: problem bodies are checked against the Problem schema', async () => {
  const v = await OpenApiValidator.load();
  const problem = { type: 'urn:fairbench:problem:invalid-parameter', title: 'Invalid parameter', status: 400, detail: 'id must be an integer' };
  assert.deepEqual(v.problems(get('/comment/abc'), json(400, problem, 'application/problem+json')), []);
  assert.notDeepEqual(v.problems(get('/comment/abc'), json(400, { error: 'bad id' }, 'application/problem+json')), []);
  assert.notDeepEqual(v.problemSchemaProblems({ ...problem, traceId: 'x' }), []);
});

test('GraphQL: the replay check accepts exact data and rejects extra, missing, renamed and mistyped fields', async () => {
  const schema = await loadSpecSchema();
  const query = '{ commentById(id: 1) { comment_id body } }';
  assert.deepEqual(graphqlResponseProblems(schema, query, {}, { data: { commentById: { comment_id: 1, body: 'x' } } }), []);
  assert.deepEqual(graphqlResponseProblems(schema, query, {}, { data: { commentById: null } }), []);
  assert.notDeepEqual(graphqlResponseProblems(schema, query, {}, { data: { commentById: { comment_id: 1, body: 'x', user_id: 1 } } }), []);
  assert.notDeepEqual(graphqlResponseProblems(schema, query, {}, { data: { commentById: { comment_id: 1 } } }), []);
  assert.notDeepEqual(graphqlResponseProblems(schema, query, {}, { data: { commentById: { commentId: 1, body: 'x' } } }), []);
  assert.notDeepEqual(graphqlResponseProblems(schema, query, {}, { data: { commentById: { comment_id: '1', body: 'x' } } }), []);
  assert.notDeepEqual(graphqlResponseProblems(schema, query, {}, { data: { commentById: { comment_id: null, body: 'x' } } }), []);
  assert.notDeepEqual(graphqlResponseProblems(schema, query, {}, { data: {}, extra: true }), []);
});

test('the oracle answers from the seed: ordering, joins, not-found and changes', () => {
  const data = generateForum(CONFORMANCE_SCALE);
  const oracle = new ForumOracle(data);
  assert.deepEqual(oracle.answer('commentById', { id: 5 }), data.comments[4]);
  assert.equal(oracle.answer('commentById', { id: 10_001 }), null);
  const list = oracle.answer('commentsByLimit', { limit: 50 }) as { comment_id: number }[];
  assert.deepEqual(
    list.map((c) => c.comment_id),
    Array.from({ length: 50 }, (_, i) => i + 1),
  );
  const first = oracle.answer('commentByUserId', { id: 3 }) as { comment_id: number; user: { user_id: number } };
  assert.deepEqual([first.comment_id, first.user], [201, data.users[2]]);
  assert.equal(oracle.answer('commentsByUserId', { id: 101, limit: 5 }), null);
  oracle.apply({ kind: 'put', table: 'user', key: 101, row: { ...data.users[0]!, user_id: 101 } });
  assert.deepEqual(oracle.answer('commentsByUserId', { id: 101, limit: 5 }), []);
  oracle.apply({ kind: 'delete', table: 'comment', key: 201 });
  assert.equal((oracle.answer('commentByUserId', { id: 3 }) as { comment_id: number }).comment_id, 202);
});

test('GraphQL: the served schema must equal the spec, whatever graphql library version serves it', async () => {
  const { buildClientSchema, buildSchema, introspectionFromSchema, printSchema } = await import('graphql');
  const { schemaDifferences } = await import('../src/spec/graphql.ts');
  const spec = await loadSpecSchema();
  assert.deepEqual(schemaDifferences(spec, introspectionFromSchema(spec)), []);
  const sdl = printSchema(buildClientSchema(introspectionFromSchema(spec, { descriptions: false })));
  for (const [from, to] of [
    ['comment_id: Int!', 'commentId: Int!'], // renamed field
    ['body: String!', 'body: String'], // nullability
    ['commentsByLimit(limit: Int!)', 'commentsByLimit(limit: Int!, offset: Int)'], // extra argument
  ] as const) {
    assert.ok(sdl.includes(from), from);
    assert.notDeepEqual(schemaDifferences(spec, introspectionFromSchema(buildSchema(sdl.replace(from, to)))), [], `${from} → ${to}`);
  }
});
