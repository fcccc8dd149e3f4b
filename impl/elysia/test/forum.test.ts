// The forum API without a database: routing, parameter rules (the range inside the pattern),
// 404/405 problems, Server-Timing, GraphQL over HTTP (request errors, limits, field errors,
// a resolver's database timeout) over a fake data layer; the data layer's statements over a
// fake pool; the embedded SDL against spec/schema.graphql.
import { describe, expect, test } from 'bun:test';
import { buildSchema, lexicographicSortSchema, printSchema } from 'graphql';
import type { Pool } from 'mysql2/promise';
import { buildApp } from '../src/app.ts';
import { DatabaseTimeout } from '../src/db-timeouts.ts';
import { createForumData, type ForumComment, type ForumCommentWithUser, type ForumData } from '../src/forum/data.ts';
import { MAX_DEPTH, MAX_ROOT_FIELDS } from '../src/forum/graphql/limits.ts';
import { schema } from '../src/forum/graphql/schema.ts';
import { canonicalUpTo } from '../src/forum/schemas.ts';

const TIMEOUT_ID = 666; // the fake's stalled database
const FAIL_ID = 667; // the fake's bug
const user = { user_id: 1, name: 'Ann', email: 'a@example.org', phone: '1', datemade: '2020-01-01', datelastupdated: null };
const comment = (id: number): ForumComment => ({ comment_id: id, thread_id: 1, user_id: 1, body: `body ${id}`, datemade: '2020-01-02', datelastupdated: null });
const withUser = (id: number): ForumCommentWithUser => ({ ...comment(id), user });

function fakeData() {
  const calls: string[] = [];
  const check = (id: number) => {
    if (id === TIMEOUT_ID) throw new DatabaseTimeout('stalled');
    if (id === FAIL_ID) throw new Error('a bug');
  };
  const data: ForumData = {
    async commentById(id) {
      calls.push(`commentById ${id}`);
      check(id);
      return id <= 10 ? comment(id) : null;
    },
    async commentsByLimit(limit) {
      calls.push(`commentsByLimit ${limit}`);
      return Array.from({ length: limit }, (_, i) => comment(i + 1));
    },
    async firstCommentOfUser(id) {
      calls.push(`firstCommentOfUser ${id}`);
      check(id);
      return id === 1 ? withUser(1) : null;
    },
    async commentsOfUser(id, limit) {
      calls.push(`commentsOfUser ${id} ${limit}`);
      check(id);
      if (id === 2) return []; // a user without comments
      return id === 1 ? Array.from({ length: limit }, (_, i) => withUser(i + 1)) : null;
    },
  };
  return { calls, data };
}

const fake = fakeData();
const app = buildApp({ forum: fake.data });
const request = (method: string, path: string, body?: string | Uint8Array, type: string | null = 'application/json') =>
  app.handle(new Request(`http://localhost${path}`, { method, ...(body === undefined ? {} : { body }), headers: type === null ? {} : { 'content-type': type } }));
const graphql = (body: unknown) => request('POST', '/graphql', JSON.stringify(body));
const timing = /^app;dur=\d+\.\d{3}$/;

async function expectProblem(res: Response, status: number, type: string) {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toStartWith('application/problem+json');
  expect(((await res.json()) as { type: string }).type).toBe(`urn:fairbench:problem:${type}`);
  expect(res.headers.get('server-timing')).toMatch(timing);
}

async function expectRequestError(res: Response) {
  expect(res.status).toBe(400);
  expect(res.headers.get('server-timing')).toMatch(timing);
  const body = (await res.json()) as { data?: unknown; errors: { message: string }[] };
  expect(body).not.toHaveProperty('data');
  expect(body.errors.length).toBeGreaterThan(0);
  return body.errors;
}

describe('canonicalUpTo', () => {
  test('matches exactly the canonical decimals 1..max', () => {
    for (const max of [1, 9, 10, 100, 205, 2_147_483_647]) {
      const rule = new RegExp(canonicalUpTo(max));
      const probes = [0, 1, 2, 9, 10, 11, 99, 100, 101, 199, 200, 204, 205, 206, 999, max - 1, max, max + 1, max * 10, 2_147_483_648, 9_999_999_999];
      for (let i = 0; i < 2000; i++) probes.push(Math.floor(Math.random() * max * 2));
      for (const n of probes) expect([n, rule.test(String(n))]).toEqual([n, n >= 1 && n <= max]);
      for (const text of ['01', '+1', '-1', '1.0', '1e3', ' 1', '1 ', '0x10', '１', '']) expect(rule.test(text)).toBe(false);
    }
  });
});

describe('forum REST routes', () => {
  test('the four reads answer the data layer, each with Server-Timing', async () => {
    const cases: [string, unknown][] = [
      ['/comment/3', comment(3)],
      ['/comments/2', [comment(1), comment(2)]],
      ['/user/1/comment', withUser(1)],
      ['/user/1/comments/2', [withUser(1), withUser(2)]],
      ['/user/2/comments/5', []],
    ];
    for (const [path, expected] of cases) {
      const res = await request('GET', path);
      expect([path, res.status]).toEqual([path, 200]);
      expect(res.headers.get('content-type')).toStartWith('application/json');
      expect(res.headers.get('server-timing')).toMatch(timing);
      expect(await res.json()).toEqual(expected);
    }
  });

  test('missing rows are 404 not-found', async () => {
    for (const path of ['/comment/11', '/user/3/comment', '/user/3/comments/5']) await expectProblem(await request('GET', path), 404, 'not-found');
  });

  test('parameters outside the rules are 400 invalid-parameter, before the database', async () => {
    fake.calls.length = 0;
    const bad = ['abc', '0', '-1', '01', '+1', '1.5', '1e3', '0x10', '%201', '%EF%BC%91', '2147483648', '99999999999999999999'];
    for (const value of bad) {
      for (const path of [`/comment/${value}`, `/user/${value}/comment`, `/user/${value}/comments/5`]) await expectProblem(await request('GET', path), 400, 'invalid-parameter');
    }
    for (const value of ['0', '101', '-1', '1000000', '050']) {
      for (const path of [`/comments/${value}`, `/user/1/comments/${value}`]) await expectProblem(await request('GET', path), 400, 'invalid-parameter');
    }
    expect(fake.calls).toEqual([]);
    expect((await request('GET', '/comment/2147483647')).status).toBe(404);
    expect((await request('GET', '/comments/100')).status).toBe(200);
  });

  test('unknown paths are 404, other methods 405 with Allow', async () => {
    for (const path of ['/', '/comment', '/comment/1/', '/comment/1/extra', '/COMMENT/1', '/user/1', '/users/1/comment']) await expectProblem(await request('GET', path), 404, 'not-found');
    for (const [method, path, allow] of [['POST', '/comment/1', 'GET'], ['DELETE', '/comments/5', 'GET'], ['PATCH', '/user/1/comment', 'GET'], ['PUT', '/user/1/comments/5', 'GET'], ['GET', '/graphql', 'POST']] as const) {
      const res = await request(method, path);
      expect(res.headers.get('allow')).toBe(allow);
      await expectProblem(res, 405, 'method-not-allowed');
    }
  });

  test('a database that does not answer is a 503 with Retry-After; a bug a 500', async () => {
    const res = await request('GET', `/comment/${TIMEOUT_ID}`);
    expect(res.headers.get('retry-after')).toBe('1');
    await expectProblem(res, 503, 'unavailable');
    const write = process.stderr.write;
    process.stderr.write = () => true; // the one log line of the 500
    try {
      await expectProblem(await request('GET', `/comment/${FAIL_ID}`), 500, 'internal');
    } finally {
      process.stderr.write = write;
    }
  });
});

describe('forum GraphQL', () => {
  test('each query answers the data layer, one call per root field (the join is the data layer\'s)', async () => {
    fake.calls.length = 0;
    const res = await graphql({
      query: 'query Q($id: ID!, $limit: Int!) { a: commentById(id: $id) { comment_id body } b: commentsByLimit(limit: $limit) { comment_id } c: commentByUserId(id: 1) { user { name } } d: commentsByUserId(id: "1", limit: 2) { comment_id user { user_id } } e: commentById(id: 99) { body } }',
      variables: { id: '3', limit: 2 },
      extensions: { ignored: true },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('server-timing')).toMatch(timing);
    expect(await res.json()).toEqual({
      data: {
        a: { comment_id: 3, body: 'body 3' },
        b: [{ comment_id: 1 }, { comment_id: 2 }],
        c: { user: { name: 'Ann' } },
        d: [{ comment_id: 1, user: { user_id: 1 } }, { comment_id: 2, user: { user_id: 1 } }],
        e: null,
      },
    });
    expect(fake.calls.sort()).toEqual(['commentById 3', 'commentById 99', 'commentsByLimit 2', 'commentsOfUser 1 2', 'firstCommentOfUser 1']);
  });

  test('arguments outside the REST rules are field errors (200, BAD_USER_INPUT), the other fields answered', async () => {
    for (const [field, args] of [['commentById', 'id: "01"'], ['commentById', 'id: 0'], ['commentById', 'id: "2147483648"'], ['commentsByLimit', 'limit: 101'], ['commentsByUserId', 'id: 1, limit: 0'], ['commentByUserId', 'id: "x"']] as const) {
      const res = await graphql({ query: `{ ${field}(${args}) { body } ok: commentById(id: 1) { comment_id } }` });
      expect(res.status).toBe(200);
      const body = (await res.json()) as { data: Record<string, unknown>; errors: { path: string[]; extensions: { code: string } }[] };
      expect(body.data).toEqual({ [field]: null, ok: { comment_id: 1 } });
      expect(body.errors).toHaveLength(1);
      expect(body.errors[0]!.path).toEqual([field]);
      expect(body.errors[0]!.extensions.code).toBe('BAD_USER_INPUT');
    }
  });

  test('request errors are 400 {errors} without data', async () => {
    const requests: unknown[] = [
      {},
      { query: 42 },
      { query: '' },
      [{ query: '{ commentById(id: 1) { body } }' }],
      { query: 'query Q($id: ID!) { commentById(id: $id) { body } }', variables: '{}' },
      { query: 'query Q($id: ID!) { commentById(id: $id) { body } }', variables: [1] },
      { query: 'query A { commentById(id: 1) { body } }', operationName: { name: 'A' } },
      { query: '{ commentById(id: 1) { body }' },
      { query: '{ commentById(id: 1) { body password } }' },
      { query: '{ commentById(id: 1) }' },
      { query: 'query Q($limit: Int!) { commentsByLimit(limit: $limit) { body } }', variables: { limit: 'x' } },
      { query: 'query Q($limit: Int!) { commentsByLimit(limit: $limit) { body } }' },
      { query: 'query A { commentById(id: 1) { body } }', operationName: 'B' },
      { query: 'query A { commentById(id: 1) { body } } query B { commentById(id: 2) { body } }' },
      { query: 'mutation { deleteComment(id: 1) }' },
      { query: `${'{ a '.repeat(10_000)}${'}'.repeat(10_000)}` }, // nested ten thousand deep, under 64 KiB
    ];
    for (const body of requests) await expectRequestError(await graphql(body));
    await expectRequestError(await request('POST', '/graphql', ''));
  });

  test(`at most ${MAX_ROOT_FIELDS} root fields (fragments expanded) and depth ${MAX_DEPTH}`, async () => {
    const roots = (n: number) => Array.from({ length: n }, (_, i) => `a${i}: commentById(id: 1) { body }`).join(' ');
    expect((await graphql({ query: `{ ${roots(MAX_ROOT_FIELDS)} }` })).status).toBe(200);
    const [tooMany] = await expectRequestError(await graphql({ query: `{ ${roots(MAX_ROOT_FIELDS + 1)} }` }));
    expect(tooMany!.message).toContain('11 root fields');
    await expectRequestError(await graphql({ query: `{ ...F ...F } fragment F on Query { ${roots(6)} }` }));
    // depth = fields along the deepest path: __schema, types, fields, type, then ofType... then name.
    const nested = (depth: number) => `{ __schema { types { fields { type { ${'ofType { '.repeat(depth - 5)}name${' }'.repeat(depth - 5)} } } } } }`;
    expect((await graphql({ query: nested(MAX_DEPTH) })).status).toBe(200);
    const [tooDeep] = await expectRequestError(await graphql({ query: nested(MAX_DEPTH + 1) }));
    expect(tooDeep!.message).toContain(`depth ${MAX_DEPTH + 1}`);
    await expectRequestError(await graphql({ query: '{ __schema { types { ...A } } } fragment A on __Type { fields { type { ...B } } } fragment B on __Type { ofType { ofType { ofType { ofType { ofType { ofType { ofType { ofType { ofType { ofType { ofType { name } } } } } } } } } } } }' }));
    // A fragment cycle is graphql's own error, not a stack overflow in the limits.
    await expectRequestError(await graphql({ query: '{ ...F } fragment F on Query { ...F }' }));
  });

  test('a resolver\'s database timeout and its bug are field errors without internals', async () => {
    const write = process.stderr.write;
    const logged: string[] = [];
    process.stderr.write = ((line: string) => logged.push(line)) as typeof process.stderr.write;
    try {
      const res = await graphql({ query: `{ slow: commentById(id: ${TIMEOUT_ID}) { body } bug: commentById(id: ${FAIL_ID}) { body } }` });
      expect(res.status).toBe(200);
      const body = (await res.json()) as { data: unknown; errors: { message: string; path: string[]; extensions: { code: string } }[] };
      expect(body.data).toEqual({ slow: null, bug: null });
      const byField = Object.fromEntries(body.errors.map((e) => [e.path[0], e]));
      expect(byField.slow!.extensions.code).toBe('SERVICE_UNAVAILABLE');
      expect(byField.bug!.extensions.code).toBe('INTERNAL_SERVER_ERROR');
      expect(JSON.stringify(body)).not.toContain('a bug');
      expect(logged).toHaveLength(1); // the bug, not the timeout
    } finally {
      process.stderr.write = write;
    }
  });

  test('bodies: JSON only (415), at most 64 KiB (413), valid JSON (400 malformed-body)', async () => {
    const query = JSON.stringify({ query: '{ commentById(id: 1) { body } }' });
    await expectProblem(await request('POST', '/graphql', query, 'text/plain'), 415, 'unsupported-media-type');
    await expectProblem(await request('POST', '/graphql', query, null), 415, 'unsupported-media-type');
    await expectProblem(await request('POST', '/graphql', JSON.stringify({ query: `{ commentById(id: 1) { body } }${' '.repeat(64 * 1024)}` })), 413, 'payload-too-large');
    await expectProblem(await request('POST', '/graphql', query.slice(0, -1)), 400, 'malformed-body');
    // Bytes that are not UTF-8 are not JSON (issue 51), not a query with U+FFFD in it.
    for (const bytes of [[0xff], [0xc3], [0xc0, 0xae], [0xed, 0xa0, 0x80]]) {
      await expectProblem(await request('POST', '/graphql', Buffer.concat([Buffer.from(query.slice(0, -2)), Buffer.from(bytes), Buffer.from('"}')])), 400, 'malformed-body');
    }
    expect((await request('POST', '/graphql', query, 'application/json; charset=utf-8')).status).toBe(200);
  });

  test('the embedded SDL is the type system of spec/schema.graphql', async () => {
    const spec = buildSchema(await Bun.file(new URL('../../../spec/schema.graphql', import.meta.url)).text());
    expect(printSchema(lexicographicSortSchema(schema))).toBe(printSchema(lexicographicSortSchema(spec)));
  });
});

describe('forum data layer', () => {
  function fakePool(answers: Record<string, unknown[]>) {
    const statements: { sql: string; timeout: number; params: unknown[] }[] = [];
    const pool = {
      async execute(options: { sql: string; timeout: number }, params: unknown[]) {
        statements.push({ sql: options.sql.replace(/\s+/g, ' '), timeout: options.timeout, params });
        const key = Object.keys(answers).find((k) => options.sql.includes(k));
        return [key === undefined ? [] : answers[key]!, []];
      },
    };
    return { statements, pool: pool as unknown as Pool };
  }
  const row = { comment_id: 5, thread_id: 2, user_id: 1, body: 'b', datemade: '2020-01-02', datelastupdated: null, user_user_id: 1, user_name: 'Ann', user_email: 'a@example.org', user_phone: '1', user_datemade: '2020-01-01', user_datelastupdated: null };

  test('one statement per read, each with the timeout; LIMIT as a decimal string; rows mapped to the spec\'s shape', async () => {
    const { statements, pool } = fakePool({ 'FROM comment c': [row], 'FROM comment': [row] });
    const data = createForumData(pool, 1234);
    expect(await data.commentById(5)).toEqual({ comment_id: 5, thread_id: 2, user_id: 1, body: 'b', datemade: '2020-01-02', datelastupdated: null });
    expect(await data.commentsByLimit(7)).toHaveLength(1);
    expect(await data.firstCommentOfUser(1)).toEqual({ ...comment(5), thread_id: 2, body: 'b', user });
    expect(await data.commentsOfUser(1, 3)).toHaveLength(1);
    expect(statements.map((s) => s.params)).toEqual([[5], ['7'], [1], [1, '3']]);
    expect(statements.every((s) => s.timeout === 1234)).toBe(true);
    expect(statements[1]!.sql).toContain('ORDER BY comment_id LIMIT ?');
    expect(statements[3]!.sql).toContain('JOIN `user` u ON u.user_id = c.user_id WHERE c.user_id = ? ORDER BY c.comment_id LIMIT ?');
  });

  test('an empty join asks whether the user exists: [] for a user without comments, null for no user', async () => {
    const exists = fakePool({ 'SELECT 1 AS found': [{ found: 1 }] });
    expect(await createForumData(exists.pool).commentsOfUser(9, 5)).toEqual([]);
    expect(exists.statements).toHaveLength(2);
    const none = fakePool({});
    expect(await createForumData(none.pool).commentsOfUser(9, 5)).toBeNull();
    expect(await createForumData(none.pool).commentById(9)).toBeNull();
    expect(await createForumData(none.pool).firstCommentOfUser(9)).toBeNull();
  });
});
