// Two flows-engine features the documents cases use: a placeholder inside a placeholder's
// name ({{seed.{{kind}}.id}}), and headers every response must carry (`required.headers`).
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import type { FlowsFile } from '../src/case-files.ts';
import type { SuiteContext } from '../src/context.ts';
import { substitute } from '../src/flows/variables.ts';
import { loadSpecValidators } from '../src/run.ts';
import { runFlows } from '../src/suites/flows.ts';

test('variables: an inner placeholder is resolved first, keeping the outer one whole', () => {
  const vars = { kind: 'text', seed: { text: { id: 'a1', payload: ['x'] } }, n: 2, list: ['a', 'b', 'c'] };
  assert.deepEqual(substitute({ p: '/d/{{seed.{{kind}}.id}}', whole: '{{seed.{{kind}}}}', deep: '{{list.{{n}}}}' }, vars), {
    p: '/d/a1',
    whole: { id: 'a1', payload: ['x'] },
    deep: 'c',
  });
  assert.throws(() => substitute('{{seed.{{nope}}}}', vars), /unknown variable \{\{nope\}\}/);
});

test('flows: a response without a required header, or with one that does not match, fails', async () => {
  const timing = { value: 'app;dur=1.234' as string | null };
  const server = createServer((req, res) => {
    res.writeHead(404, { 'content-type': 'application/problem+json', ...(timing.value === null ? {} : { 'server-timing': timing.value }) });
    res.end(JSON.stringify({ type: 'urn:fairbench:problem:not-found', title: 'Not found', status: 404 }));
  }).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const file: FlowsFile = {
    required: { headers: { 'server-timing': '^app;dur=[0-9]+\\.[0-9]{3}$' } },
    flows: [
      { id: 'read', why: 'a 404', steps: [{ request: { method: 'GET', path: '/nothing/{{which.{{k}}}}' }, expect: { status: 404, problem: 'not-found' } }] },
    ],
  };
  const ctx: SuiteContext = {
    api: 'toy',
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    ...(await loadSpecValidators()),
    store: { digest: async () => '' },
    reset: async () => {},
    jwtSecret: 'x',
    alive: () => true,
  };
  try {
    const outcome = async () =>
      (await runFlows(ctx, { records: { count: async () => 0, findOne: async () => null }, variables: { k: 'a', which: { a: 1 } } }, file))[0]!;
    assert.deepEqual((await outcome()).failures, []);
    timing.value = 'app;dur=12';
    assert.match((await outcome()).failures.join('\n'), /header server-timing: expected to match/);
    timing.value = null;
    assert.match((await outcome()).failures.join('\n'), /header server-timing: .*got null/);
  } finally {
    server.close();
  }
});
