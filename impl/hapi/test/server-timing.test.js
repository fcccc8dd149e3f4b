// Server-Timing on every kind of response (bench/k6/measure.js reads app;dur=<ms>): successes,
// problems from validation, from Hapi itself (unknown path, 413, 415, bad JSON) and from a
// crash. Over real HTTP, so the header is checked as sent. A slow data layer shows that the
// time spans the handler's work, from the request's arrival to the response.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from '../src/app.js';

const WELL_FORMED = /^app;dur=(\d+\.\d{3})$/;
const DELAY_MS = 40;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const ID = '6650f1c2a1b2c3d4e5f60718';
const SLOW = '6650f1c2a1b2c3d4e5f6071a';
const FAILING = '6650f1c2a1b2c3d4e5f6071f';
const text = 'x'.repeat(1000);
const documents = {
  async create(body) { return { id: ID, ...body }; },
  async get(id) {
    if (id === SLOW) await sleep(DELAY_MS);
    if (id === FAILING) throw new Error('db down');
    return id === ID || id === SLOW ? { id, kind: 'text', payload: text } : null;
  },
  async replace() { return null; },
  async remove(id) { return id === ID; },
};

let server;
let base;
before(async () => {
  server = await createServer({ port: 0, host: '127.0.0.1', apis: { documents } });
  await server.start();
  base = server.info.uri;
});
after(() => server.stop());

/** The response's status and its Server-Timing duration (ms); fails unless the header is well-formed. */
async function timed(method, path, body, type = 'application/json') {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers['content-type'] = type;
    init.body = typeof body === 'string' ? body : JSON.stringify(body);
  }
  const original = process.stderr.write;
  process.stderr.write = () => true; // the 500 case logs one line; keep the test output clean
  let res;
  try {
    res = await fetch(base + path, init);
  } finally {
    process.stderr.write = original;
  }
  await res.arrayBuffer();
  const header = res.headers.get('server-timing');
  const match = WELL_FORMED.exec(header ?? '');
  assert.ok(match, `${method} ${path} -> ${res.status}: Server-Timing ${JSON.stringify(header)}`);
  return { status: res.status, ms: Number(match[1]) };
}

// [what, the status it must have, method, path, body?, content type?]: every one must be timed.
const RESPONSES = [
  ['documents 201', 201, 'POST', '/documents', { kind: 'text', payload: text }],
  ['documents 200', 200, 'GET', `/documents/${ID}`],
  ['documents HEAD 200', 200, 'HEAD', `/documents/${ID}`],
  ['documents 204', 204, 'DELETE', `/documents/${ID}`],
  ['documents 404 (no such document)', 404, 'GET', '/documents/6650f1c2a1b2c3d4e5f60719'],
  ['documents 400 (bad id)', 400, 'GET', '/documents/nope'],
  ['documents 400 (invalid body)', 400, 'POST', '/documents', { kind: 'text', payload: 'short' }],
  ['documents 400 (malformed JSON)', 400, 'POST', '/documents', '{"kind": '],
  ['documents 405', 405, 'PATCH', `/documents/${ID}`],
  ['documents 413', 413, 'POST', '/documents', { kind: 'text', payload: 'x'.repeat(600 * 1024) }],
  ['documents 415', 415, 'POST', '/documents', 'x', 'text/plain'],
  ['documents 500 (data layer fails)', 500, 'GET', `/documents/${FAILING}`],
  ['unknown path 404', 404, 'GET', '/nope'],
  ['exact paths: /Documents/<id> 404', 404, 'GET', `/Documents/${ID}`],
  ['another API\'s path 404', 404, 'GET', '/comment/1'],
  ['health 200', 200, 'GET', '/health'],
  ['health 405', 405, 'DELETE', '/health'],
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
test('the time spans the data layer: a 40 ms read is timed at about 40 ms or more', async () => {
  const { status, ms } = await timed('GET', `/documents/${SLOW}`);
  assert.equal(status, 200);
  assert.ok(ms >= DELAY_MS - 5, `${ms} ms`);
});
