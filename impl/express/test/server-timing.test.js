// Server-Timing on every kind of response of the three APIs (bench/k6/measure.js reads
// app;dur=<ms>): successes, problems, GraphQL data and errors, unknown paths, crashes.
// One app serves all three over in-memory data layers; a slow one shows that the time
// spans the handler's work, from the request's arrival to the headers.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildApp } from '../src/app.js';

const WELL_FORMED = /^app;dur=(\d+\.\d{3})$/;
const DELAY_MS = 40;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const comment = { comment_id: 1, thread_id: 1, user_id: 1, body: 'c1', datemade: '2020-01-01', datelastupdated: null };
const forum = {
  async commentById(id) {
    if (id === 7) await sleep(DELAY_MS);
    if (id === 13) throw new Error('db down');
    return id === 1 || id === 7 ? comment : null;
  },
  async commentsByLimit(limit) { return Array.from({ length: limit }, () => comment); },
  async firstCommentByUserId() { return null; },
  async commentsByUserId() { return []; },
  async userExists() { return false; },
};
const alice = { id: '60b578809f2a2a8b5e000001', name: 'A', surname: 'S', username: 'alice', role: 'user' };
const users = {
  async list() { return [alice]; },
  async byId(id) { return id === alice.id ? alice : null; },
  async credentials() { return null; },
};
const ID = '6650f1c2a1b2c3d4e5f60718';
const documents = {
  async create(body) { return { id: ID, ...body }; },
  async get(id) { return id === ID ? { id, kind: 'text', payload: 'x' } : null; },
  async replace() { return null; },
  async remove(id) { return id === ID; },
};

let server;
let base;
before(async () => {
  const app = buildApp({ forum, users: { data: users, jwt: { secret: 'unit-test-secret', lifetimeSeconds: 60 } }, documents });
  server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  base = `http://127.0.0.1:${server.address().port}`;
});
after(() => server.close());

function send(method, path, body, type = 'application/json') {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers['content-type'] = type;
    init.body = typeof body === 'string' ? body : JSON.stringify(body);
  }
  return fetch(base + path, init);
}

/** The response's status and its Server-Timing duration (ms); fails unless the header is well-formed. */
async function timed(method, path, body, type) {
  const original = process.stderr.write;
  process.stderr.write = () => true; // the 500 case logs one line; keep the test output clean
  let res;
  try {
    res = await send(method, path, body, type);
  } finally {
    process.stderr.write = original;
  }
  await res.arrayBuffer();
  const header = res.headers.get('server-timing');
  const match = WELL_FORMED.exec(header ?? '');
  assert.ok(match, `${method} ${path} -> ${res.status}: Server-Timing ${JSON.stringify(header)}`);
  return { status: res.status, ms: Number(match[1]) };
}

const query = (q) => ({ query: q });

// [what, the status it must have, method, path, body?, content type?]: every one must be timed.
const RESPONSES = [
  ['forum REST 200', 200, 'GET', '/comment/1'],
  ['forum REST list 200', 200, 'GET', '/comments/3'],
  ['forum REST 404 (no such comment)', 404, 'GET', '/comment/2'],
  ['forum REST 404 (no such user)', 404, 'GET', '/user/9/comments/5'],
  ['forum REST 400 (bad id)', 400, 'GET', '/comment/abc'],
  ['forum REST 400 (undecodable parameter)', 400, 'GET', '/comments/%FF'],
  ['forum REST 405', 405, 'POST', '/comment/1'],
  ['forum REST 500 (data layer fails)', 500, 'GET', '/comment/13'],
  ['GraphQL 200 data', 200, 'POST', '/graphql', query('{ commentById(id: 1) { comment_id } }')],
  ['GraphQL 200 field error', 200, 'POST', '/graphql', query('{ commentsByLimit(limit: 0) { comment_id } }')],
  ['GraphQL 400 request error', 400, 'POST', '/graphql', query('{ nope }')],
  ['GraphQL 400 request shape', 400, 'POST', '/graphql', { query: '{ __typename }', variables: 'x' }],
  ['GraphQL 400 malformed JSON', 400, 'POST', '/graphql', '{"query": '],
  ['GraphQL 413', 413, 'POST', '/graphql', { query: '{ __typename }', pad: 'x'.repeat(70 * 1024) }],
  ['GraphQL 415', 415, 'POST', '/graphql', '{ __typename }', 'text/plain'],
  ['GraphQL 405', 405, 'GET', '/graphql'],
  ['users 200', 200, 'GET', '/users'],
  ['users 400', 400, 'GET', '/users/abc'],
  ['users 401', 401, 'GET', '/me'],
  ['users 415', 415, 'POST', '/auth/login', 'x', 'text/plain'],
  ['documents 201', 201, 'POST', '/documents', { kind: 'text', payload: 'x'.repeat(1000) }],
  ['documents 200', 200, 'GET', `/documents/${ID}`],
  ['documents 204', 204, 'DELETE', `/documents/${ID}`],
  ['documents 404', 404, 'GET', '/documents/6650f1c2a1b2c3d4e5f60719'],
  ['documents 400', 400, 'GET', '/documents/nope'],
  ['unknown path 404', 404, 'GET', '/nope'],
  ['exact paths: /COMMENT/1 404', 404, 'GET', '/COMMENT/1'],
  ['health 200', 200, 'GET', '/health'],
];

for (const [name, status, method, path, body, type] of RESPONSES) {
  test(`Server-Timing on ${name}`, async () => {
    const res = await timed(method, path, body, type);
    assert.equal(res.status, status);
    assert.ok(res.ms >= 0 && res.ms < 10_000, `${res.ms} ms`);
  });
}

// Node's timers run on a millisecond clock cached per loop turn and may fire up to ~1 ms
// early by hrtime: hence the margin.
const SPANS_DELAY = DELAY_MS - 5;

test('the time spans the data layer: a 40 ms read is timed at about 40 ms or more, in REST and GraphQL', async () => {
  for (const [method, path, body] of [['GET', '/comment/7'], ['POST', '/graphql', query('{ commentById(id: 7) { comment_id } }')]]) {
    const { ms } = await timed(method, path, body);
    assert.ok(ms >= SPANS_DELAY, `${method} ${path}: ${ms} ms`);
  }
});
