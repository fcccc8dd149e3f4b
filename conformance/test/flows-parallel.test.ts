// The flows engine's concurrency step (parallel: N) and the API's invariants after every
// flow: a toy counter server that can hand out the same number twice (a lost update) and
// whose ledger can fall out of balance.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import type { FlowsFile } from '../src/case-files.ts';
import type { SuiteContext } from '../src/context.ts';
import { loadSpecValidators } from '../src/run.ts';
import type { RecordReader } from '../src/stores/records.ts';
import { runFlows } from '../src/suites/flows.ts';

interface Counter {
  next: number;
  taken: number[];
  inFlight: number;
  maxInFlight: number;
  /** lost-update: reads the counter, waits, then writes it back plus one (two requests can get the same number). */
  defect: 'none' | 'lost-update';
}

function counterServer(counter: Counter) {
  return createServer((req, res) => {
    counter.inFlight += 1;
    counter.maxInFlight = Math.max(counter.maxInFlight, counter.inFlight);
    const answer = (n: number) => {
      counter.taken.push(n);
      counter.inFlight -= 1;
      res.writeHead(200, { 'content-type': 'application/json', 'server-timing': 'app;dur=0.100' }).end(JSON.stringify({ n }));
    };
    req.resume();
    req.on('end', () => {
      if (counter.defect === 'lost-update') {
        const read = counter.next;
        setTimeout(() => {
          counter.next = read + 1;
          answer(read);
        }, 30);
      } else {
        const n = counter.next++;
        setTimeout(() => answer(n), 30);
      }
    });
  });
}

const FLOWS: FlowsFile = {
  flows: [
    {
      id: 'twenty-at-once',
      why: 'twenty parallel requests each take a number',
      steps: [
        { request: { method: 'POST', path: '/take' }, expect: { status: 200, json: { n: { $type: 'integer' } } }, save: { numbers: '/n' }, parallel: 20 },
      ],
    },
  ],
};

const NO_RECORDS: RecordReader = { count: async () => 0, findOne: async () => null };

async function run(defect: Counter['defect']) {
  const counter: Counter = { next: 1, taken: [], inFlight: 0, maxInFlight: 0, defect };
  const server = counterServer(counter).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const ctx: SuiteContext = {
    api: 'counter',
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    ...(await loadSpecValidators()),
    store: { digest: async () => String(counter.taken.length) },
    reset: async () => {},
    jwtSecret: 'x',
    alive: () => true,
  };
  // The invariant: every number handed out was handed out once.
  const invariants = async () =>
    new Set(counter.taken).size === counter.taken.length ? [] : [`${counter.taken.length - new Set(counter.taken).size} numbers were handed out twice`];
  try {
    const results = await runFlows(ctx, { records: NO_RECORDS, variables: {}, invariants }, FLOWS);
    return { results, counter };
  } finally {
    server.close();
  }
}

test('parallel: N sends the request N times at once; every answer is checked', async () => {
  const { results, counter } = await run('none');
  assert.deepEqual(
    results.map((r) => [r.id, r.passed, r.failures]),
    [['flows/twenty-at-once', true, []]],
  );
  assert.equal(counter.taken.length, 20);
  // All twenty were in the server together: sent at once, not one after another.
  assert.equal(counter.maxInFlight, 20);
});

test('a lost update under concurrency breaks the invariant, which fails the flow', async () => {
  const { results } = await run('lost-update');
  assert.equal(results[0]!.passed, false);
  assert.match(results[0]!.failures.join('\n'), /^after the flow: 19 numbers were handed out twice$/m);
});

test('a tally counts a race: each answer meets one entry, each entry its number of times', async () => {
  const counter: Counter = { next: 1, taken: [], inFlight: 0, maxInFlight: 0, defect: 'none' };
  const server = counterServer(counter).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const ctx: SuiteContext = {
    api: 'counter',
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    ...(await loadSpecValidators()),
    store: { digest: async () => String(counter.taken.length) },
    reset: async () => {},
    jwtSecret: 'x',
    alive: () => true,
  };
  const race = (first: number): FlowsFile => ({
    flows: [
      {
        id: 'race',
        why: 'one request gets number 1, the others higher ones',
        steps: [
          {
            request: { method: 'POST', path: '/take' },
            parallel: 10,
            tally: [
              { times: first, expect: { status: 200, json: { n: 1 } } },
              { times: 10 - first, expect: { status: 200 } },
            ],
          },
        ],
      },
    ],
  });
  try {
    const ok = await runFlows(ctx, { records: NO_RECORDS, variables: {} }, race(1));
    assert.deepEqual(
      ok.map((r) => [r.passed, r.failures]),
      [[true, []]],
    );
    counter.next = 1;
    const wrong = await runFlows(ctx, { records: NO_RECORDS, variables: {} }, race(2));
    assert.deepEqual(
      wrong.map((r) => r.failures),
      [
        [
          'step 1 (POST /take) ×10 at once: expected 2 answer(s) meeting entry 1 (status 200), got 1',
          'step 1 (POST /take) ×10 at once: expected 8 answer(s) meeting entry 2 (status 200), got 9',
        ],
      ],
    );
  } finally {
    server.close();
  }
});

test('maxStatements bounds what the implementation runs for a request, by the fixture counter', async () => {
  const counter: Counter = { next: 1, taken: [], inFlight: 0, maxInFlight: 0, defect: 'none' };
  const server = counterServer(counter).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const ctx: SuiteContext = {
    api: 'counter',
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    ...(await loadSpecValidators()),
    store: { digest: async () => 'same' },
    reset: async () => {},
    jwtSecret: 'x',
    alive: () => true,
  };
  // Each request the toy server answers counts as one statement.
  const statements = async () => counter.taken.length;
  const bounded = (copies: number, max: number): FlowsFile => ({
    flows: [
      {
        id: 'bounded',
        why: 'a statement budget',
        steps: [{ request: { method: 'POST', path: '/take' }, expect: { status: 200 }, maxStatements: max, ...(copies > 1 ? { parallel: copies } : {}) }],
      },
    ],
  });
  try {
    assert.deepEqual(
      (await runFlows(ctx, { records: NO_RECORDS, variables: {}, statements }, bounded(1, 1))).map((r) => r.failures),
      [[]],
    );
    assert.deepEqual(
      (await runFlows(ctx, { records: NO_RECORDS, variables: {}, statements }, bounded(3, 2))).map((r) => r.failures),
      [['step 1 (POST /take) ×3 at once: ran 3 SQL statements, at most 2 allowed (N+1 queries?)']],
    );
    await assert.rejects(
      runFlows(ctx, { records: NO_RECORDS, variables: {} }, bounded(1, 1)).then((r) => {
        if (!r[0]!.passed) throw new Error(r[0]!.failures.join());
      }),
      /counts no statements/,
    );
  } finally {
    server.close();
  }
});
