// The runner's pieces for bodies sent chunked and for races: a chunked body sent whole before the answer is read (a
// server that answers early and drops the connection must fail the case, one that reads or
// drains the body must pass), and a race of different requests (vary) counted with atLeast and
// saveCount against a toy booking server, with and without a 500 among the answers.
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import type { FlowsFile } from '../src/case-files.ts';
import type { SuiteContext } from '../src/context.ts';
import { send } from '../src/http.ts';
import { loadSpecValidators } from '../src/run.ts';
import type { RecordReader } from '../src/stores/records.ts';
import { runFlows } from '../src/suites/flows.ts';

async function listening(handler: (req: IncomingMessage, res: ServerResponse) => void) {
  const server = createServer(handler).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return { server, baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

const TOO_LARGE = JSON.stringify({ type: 'urn:fairbench:problem:payload-too-large', title: 'Payload too large', status: 413 });
const BIG = {
  method: 'POST',
  path: '/x',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ padding: 'x'.repeat(256 * 1024) }),
  chunked: true,
} as const;

test('a chunked body: the answer of a server that reads the whole body first is read after sending', async () => {
  let sawLength: string | undefined = 'unset';
  let bytes = 0;
  const { server, baseUrl } = await listening((req, res) => {
    sawLength = req.headers['content-length'];
    req.on('data', (c: Buffer) => (bytes += c.length));
    req.on('end', () => res.writeHead(413, { 'content-type': 'application/problem+json' }).end(TOO_LARGE));
  });
  try {
    const res = await send(baseUrl, BIG);
    assert.equal(res.status, 413);
    assert.equal(res.mediaType, 'application/problem+json');
    assert.deepEqual(res.json, JSON.parse(TOO_LARGE));
    assert.equal(sawLength, undefined, 'no Content-Length');
    assert.equal(bytes, BIG.body.length);
  } finally {
    server.close();
  }
});

test('a chunked body: a server that drops the connection once the body is over its limit gives no answer (the case fails)', async () => {
  const { server, baseUrl } = await listening((req) => {
    // What Hapi did (Wreck destroying the request on maxBytes): the socket goes before any answer.
    let bytes = 0;
    req.on('data', (c: Buffer) => {
      bytes += c.length;
      if (bytes > 64 * 1024) req.destroy();
    });
  });
  try {
    await assert.rejects(send(baseUrl, BIG), /no answer/);
  } finally {
    server.close();
  }
});

/** A toy booking server: a slot overlapping a booked one is a 409; `defect: 'one-500'` answers the third request with a 500. */
async function bookingServer(defect: 'none' | 'one-500') {
  const booked: [number, number][] = [];
  let n = 0;
  return listening((req, res) => {
    let text = '';
    req.on('data', (c: Buffer) => (text += c.toString()));
    req.on('end', () => {
      const { start, end } = JSON.parse(text) as { start: number; end: number };
      const json = (status: number, body: unknown, type = 'application/json') =>
        res.writeHead(status, { 'content-type': type, 'server-timing': 'app;dur=0.100' }).end(JSON.stringify(body));
      if (defect === 'one-500' && ++n === 3)
        return json(500, { type: 'urn:fairbench:problem:internal', title: 'Internal server error', status: 500 }, 'application/problem+json');
      if (booked.some(([s, e]) => start < e && s < end))
        return json(409, { type: 'urn:fairbench:problem:conflict', title: 'Conflict', status: 409 }, 'application/problem+json');
      booked.push([start, end]);
      return json(201, { start, end });
    });
  });
}

const RACE: FlowsFile = {
  flows: [
    {
      id: 'overlapping',
      why: 'overlapping slots at once: 201 or 409 only, the 201s counted',
      steps: [
        {
          request: { method: 'POST', path: '/book', json: { start: '{{slot.0}}', end: '{{slot.1}}' } },
          vary: {
            slot: [
              [6, 9],
              [7, 10],
              [8, 11],
              [9, 12],
              [10, 13],
              [11, 14],
            ],
          },
          tally: [
            { atLeast: 1, saveCount: 'created', expect: { status: 201 } },
            { atLeast: 0, expect: { status: 409, problem: 'conflict' } },
          ],
        },
        { request: { method: 'POST', path: '/book', json: { start: 20, end: 21 } }, expect: { status: 201, json: { start: 20, end: 21 } } },
      ],
    },
  ],
};

async function race(defect: 'none' | 'one-500') {
  const { server, baseUrl } = await bookingServer(defect);
  const ctx: SuiteContext = {
    api: 'booking',
    baseUrl,
    ...(await loadSpecValidators()),
    store: { digest: async () => 'same' },
    reset: async () => {},
    jwtSecret: 'x',
    alive: () => true,
  };
  const records: RecordReader = { count: async () => 0, findOne: async () => null };
  try {
    return await runFlows(ctx, { records, variables: {}, invariants: async () => [] }, RACE);
  } finally {
    server.close();
  }
}

test('a race of different requests (vary): 201s and 409s pass; one 500 among them fails the case', async () => {
  const [ok] = await race('none');
  assert.equal(ok!.passed, true, ok!.failures.join('\n'));
  const [bad] = await race('one-500');
  assert.equal(bad!.passed, false);
  assert.match(bad!.failures.join('\n'), /server error/);
});
