// Bodies that are not UTF-8 (issue 51): a case's `bodyEncoding: latin1` sends each character of
// its body as one byte, those bytes reach the server as they are (plain and chunked), a character
// that is no single byte is a case-file error, and every such body in the APIs' case files really
// is not UTF-8 (a body written in single quotes, where "\xff" stays four characters, would be).
import assert from 'node:assert/strict';
import { isUtf8 } from 'node:buffer';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { loadApis } from '@fairbench/harness/api/manifest.ts';
import { loadCaseFile, type BadInputRequest, type FlowRequest } from '../src/case-files.ts';
import { latin1Bytes, send } from '../src/http.ts';
import { newAjv } from '@fairbench/harness/json-schema.ts';
import caseFilesSchema from '../schemas/case-files.schema.json' with { type: 'json' };

test('latin1Bytes: each character the byte of its code point; a wider character is an error', () => {
  assert.deepEqual([...latin1Bytes('{"a":"\xff\xfe\xc3"}')], [0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0xc3, 0x22, 0x7d]);
  assert.throws(() => latin1Bytes('price: \u20ac'), /"€", which is not one byte/);
});

test('a latin1 body reaches the server byte for byte, sent plainly and chunked', async () => {
  const received: Buffer[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push(Buffer.concat(chunks));
      res.writeHead(400, { 'content-type': 'application/problem+json' }).end('{}');
    });
  }).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    const body = latin1Bytes('{"w_id": "\xff\xfe"}');
    await send(baseUrl, { method: 'POST', path: '/x', headers: { 'content-type': 'application/json' }, body });
    await send(baseUrl, { method: 'POST', path: '/x', headers: { 'content-type': 'application/json' }, body, chunked: true });
    assert.equal(received.length, 2);
    for (const bytes of received) {
      assert.deepEqual(bytes, Buffer.from(body));
      assert.equal(isUtf8(bytes), false);
    }
  } finally {
    server.close();
  }
});

test('the case-file schema: bodyEncoding needs a body, and latin1 is its only value', () => {
  const ajv = newAjv();
  ajv.addSchema(caseFilesSchema);
  const flows = ajv.getSchema('urn:fairbench:schema:case-files#/$defs/flows')!;
  const badInput = ajv.getSchema('urn:fairbench:schema:case-files#/$defs/bad-input')!;
  const flow = (request: object) => ({
    flows: [{ id: 'x', why: 'y', steps: [{ request: { method: 'POST', path: '/x', ...request }, expect: { status: 400 } }] }],
  });
  const badCase = (request: object) => ({ cases: [{ id: 'x', request: { method: 'POST', path: '/x', ...request }, expect: { status: 400 } }] });
  assert.equal(flows(flow({ body: '\xff', bodyEncoding: 'latin1' })), true);
  assert.equal(flows(flow({ bodyEncoding: 'latin1' })), false);
  assert.equal(flows(flow({ json: {}, bodyEncoding: 'latin1' })), false);
  assert.equal(flows(flow({ body: '\xff', bodyEncoding: 'utf16' })), false);
  assert.equal(badInput(badCase({ body: '\xff', bodyEncoding: 'latin1' })), true);
  assert.equal(badInput(badCase({ bodyEncoding: 'latin1' })), false);
});

test('every latin1 body in the case files is not UTF-8, and is one byte per character', async () => {
  const bodies: { where: string; body: string }[] = [];
  for (const api of await loadApis()) {
    const suites = api.manifest.conformance.suites;
    const requests: { where: string; request: BadInputRequest | FlowRequest }[] = [];
    if (suites.includes('bad-input'))
      for (const c of (await loadCaseFile(api, 'bad-input')).cases)
        if (c.request) requests.push({ where: `${api.manifest.name} bad-input/${c.id}`, request: c.request });
    if (suites.includes('flows'))
      for (const f of (await loadCaseFile(api, 'flows')).flows)
        for (const step of f.steps) if ('request' in step) requests.push({ where: `${api.manifest.name} flows/${f.id}`, request: step.request });
    for (const { where, request } of requests) if (request.bodyEncoding === 'latin1') bodies.push({ where, body: request.body! });
  }
  assert.ok(bodies.length >= 10, `only ${bodies.length} latin1 bodies found`);
  for (const { where, body } of bodies) assert.equal(isUtf8(latin1Bytes(body)), false, `${where}: its latin1 body is UTF-8`);
});
