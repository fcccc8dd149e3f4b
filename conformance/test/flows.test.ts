// The flows engine must be able to fail: a toy API on a local HTTP server, with a
// defect of each kind the engine exists to catch, and a real FerretDB for the
// document store.
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { decodeJwt, decodeProtectedHeader, jwtVerify } from 'jose';
import { runCleanup } from '@fairbench/harness/cleanup.ts';
import { localProvider } from '@fairbench/harness/provision/local/index.ts';
import type { DatabaseServer } from '@fairbench/harness/provision/types.ts';
import type { FlowsFile } from '../src/case-files.ts';
import type { SuiteContext } from '../src/context.ts';
import { forgeToken } from '../src/flows/jwt.ts';
import { forbiddenKeysIn, mismatches } from '../src/flows/match.ts';
import { atPointer, substitute } from '../src/flows/variables.ts';
import { loadSpecValidators } from '../src/run.ts';
import { MongoStore } from '../src/stores/mongo.ts';
import type { RecordReader } from '../src/stores/records.ts';
import { runFlows } from '../src/suites/flows.ts';

after(() => runCleanup());

test('variables: a whole placeholder keeps its type, an embedded one becomes text; unknown ones fail', () => {
  const vars = { alice: { id: 'a1', age: 7 }, payload: [1, 2] };
  assert.deepEqual(substitute({ p: '/u/{{alice.id}}', n: '{{alice.age}}', b: '{{payload}}', s: 'n={{alice.age}}' }, vars), {
    p: '/u/a1',
    n: 7,
    b: [1, 2],
    s: 'n=7',
  });
  assert.throws(() => substitute('{{bob.id}}', vars), /unknown variable \{\{bob.id\}\}/);
  assert.equal(atPointer({ a: [{ 'b/c': 5 }] }, '/a/0/b~1c'), 5);
  assert.throws(() => atPointer({ a: 1 }, '/b'), /nothing at \/b/);
});

test('match: exact equality rejects extra keys, subset ignores them, $type matches by kind', () => {
  assert.deepEqual(mismatches({ a: 1 }, { a: 1 }, false), []);
  assert.deepEqual(mismatches({ a: 1 }, { a: 1, hash: 'x' }, false), ['/hash: not expected ("x")']);
  assert.deepEqual(mismatches({ a: 1 }, { a: 1, hash: 'x' }, true), []);
  assert.deepEqual(mismatches({ a: 1 }, { a: 2 }, true), ['/a: expected 1, got 2']);
  assert.deepEqual(mismatches([1, 2], [1], true), ['(body): expected 2 items, got 1']);
  assert.deepEqual(mismatches({ id: { $type: 'objectId' } }, { id: '0123456789abcdef01234567' }, false), []);
  assert.equal(mismatches({ id: { $type: 'objectId' } }, { id: 'xyz' }, false).length, 1);
  assert.equal(mismatches({ t: { $type: 'jwt' } }, { t: 'a.b' }, false).length, 1);
  assert.deepEqual(forbiddenKeysIn([{ user: { password: 1 } }, { salt: 2 }], new Set(['password', 'salt'])), ['/0/user/password', '/1/salt']);
});

test('jwt: forged tokens verify with the right secret only, expire when told, and alg none is unsigned', async () => {
  const secret = 'the-secret';
  const key = new TextEncoder().encode(secret);
  const good = await forgeToken({ sub: 'u1', role: 'admin' }, secret);
  const { payload } = await jwtVerify(good, key);
  assert.equal(payload.sub, 'u1');
  assert.equal(payload['role'], 'admin');
  await assert.rejects(jwtVerify(await forgeToken({ sub: 'u1', secret: 'wrong' }, secret), key));
  await assert.rejects(jwtVerify(await forgeToken({ sub: 'u1', expiresInSeconds: -60 }, secret), key), /exp/);
  const none = await forgeToken({ sub: 'u1', alg: 'none' }, secret);
  assert.equal(decodeProtectedHeader(none).alg, 'none');
  assert.equal(none.split('.')[2], '');
  assert.equal(decodeJwt(none).sub, 'u1');
});

// A toy API: POST /things stores {name} and answers it (a defect switch adds a
// secret, changes data on a rejection, or fails with 500); GET /things/:n reads one.
interface Toy {
  things: { name: string; secret: string }[];
  defect: 'none' | 'leak' | 'write-on-reject' | 'crash';
}
function toyServer(toy: Toy) {
  return createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const send = (status: number, value?: unknown, type = 'application/json') => {
        res
          .writeHead(status, { 'server-timing': 'app;dur=0.100', ...(value === undefined ? {} : { 'content-type': type }) })
          .end(value === undefined ? undefined : JSON.stringify(value));
      };
      if (toy.defect === 'crash') return send(500, { oops: true });
      if (req.method === 'POST' && req.url === '/things') {
        const input = JSON.parse(body || '{}') as { name?: unknown };
        if (typeof input.name !== 'string') {
          if (toy.defect === 'write-on-reject') toy.things.push({ name: 'junk', secret: 's' });
          return send(400, { type: 'urn:fairbench:problem:invalid-parameter', title: 'Invalid parameter', status: 400 }, 'application/problem+json');
        }
        toy.things.push({ name: input.name, secret: '$2b$10$abcdefghijklmnopqrstuv' });
        const n = toy.things.length - 1;
        return send(
          201,
          toy.defect === 'leak' ? { n, name: input.name, hash: toy.things[n]!.secret } : { n, name: input.name, auth: req.headers.authorization ?? null },
        );
      }
      const m = /^\/things\/(\d+)$/.exec(req.url ?? '');
      const thing = m ? toy.things[Number(m[1])] : undefined;
      return thing
        ? send(200, { name: thing.name })
        : send(404, { type: 'urn:fairbench:problem:not-found', title: 'Not found', status: 404 }, 'application/problem+json');
    });
  });
}

const FLOWS: FlowsFile = {
  forbidden: { keys: ['hash'], patterns: ['\\$2[aby]\\$\\d\\d\\$'] },
  flows: [
    {
      id: 'create-then-read',
      why: 'a saved value feeds the next request',
      each: { name: ['Ada', 'Bo'] },
      steps: [
        {
          request: { method: 'POST', path: '/things', json: { name: '{{name}}' }, auth: '{{token}}' },
          expect: { status: 201, json: { n: { $type: 'integer' }, name: '{{name}}', auth: 'Bearer T0K' } },
          save: { n: '/n' },
        },
        { request: { method: 'GET', path: '/things/{{n}}' }, expect: { status: 200, json: { name: '{{name}}' } } },
      ],
    },
    {
      id: 'rejected',
      why: 'a rejected request must leave the data as it was',
      steps: [{ request: { method: 'POST', path: '/things', json: { name: 5 } }, expect: { status: 400, problem: 'invalid-parameter' } }],
    },
  ],
};

/** The toy API stores nothing a db: step could read. */
const NO_RECORDS: RecordReader = {
  count: async () => 0,
  findOne: async () => null,
};

async function runToy(defect: Toy['defect']) {
  const toy: Toy = { things: [], defect };
  const server = toyServer(toy).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  let resets = 0;
  const ctx: SuiteContext = {
    api: 'toy',
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    ...(await loadSpecValidators()),
    store: { digest: async () => JSON.stringify(toy.things) },
    reset: async () => {
      resets += 1;
      toy.things = [];
    },
    jwtSecret: 'x',
    alive: () => true,
  };
  const fixture = { records: NO_RECORDS, variables: { token: 'T0K' } };
  try {
    return { results: await runFlows(ctx, fixture, FLOWS), resets };
  } finally {
    server.close();
  }
}

test('flows: a correct API passes, each case expanded per value, and data is reset after every changing flow', async () => {
  const { results, resets } = await runToy('none');
  assert.deepEqual(
    results.map((r) => [r.id, r.passed, r.failures]),
    [
      ['flows/create-then-read[Ada]', true, []],
      ['flows/create-then-read[Bo]', true, []],
      ['flows/rejected', true, []],
    ],
  );
  assert.equal(resets, 2);
});

test('flows: a leaked hash, a write on a rejected request and a 5xx each fail', async () => {
  const leak = await runToy('leak');
  assert.equal(leak.results[0]!.passed, false);
  assert.match(leak.results[0]!.failures.join('\n'), /forbidden keys: \/hash/);
  assert.match(leak.results[0]!.failures.join('\n'), /forbidden pattern/);

  const write = await runToy('write-on-reject');
  assert.deepEqual(
    write.results.map((r) => r.passed),
    [true, true, false],
  );
  assert.match(write.results[2]!.failures[0]!, /rejected request changed the stored data/);

  const crash = await runToy('crash');
  assert.ok(crash.results.every((r) => !r.passed && /server error/.test(r.failures[0]!)));
});

let mongo: DatabaseServer;
before(async () => {
  mongo = await localProvider.start('mongo');
});

test('MongoStore: the digest sees every change, _id filters take hex strings, documents come back as plain JSON', async () => {
  const store = await MongoStore.connect(mongo.url, ['things']);
  const { MongoClient, ObjectId } = await import('mongodb');
  const client = new MongoClient(mongo.url, { directConnection: true });
  try {
    const things = client.db().collection('things');
    const empty = await store.digest();
    const id = new ObjectId();
    await things.insertOne({ _id: id, name: 'Ada', at: new Date('2020-01-02T03:04:05Z') });
    const one = await store.digest();
    assert.notEqual(one, empty);
    assert.deepEqual(await store.findOne('things', { _id: id.toHexString() }), { _id: id.toHexString(), name: 'Ada', at: '2020-01-02T03:04:05.000Z' });
    assert.equal(await store.count('things', { name: 'Ada' }), 1);
    await things.updateOne({ _id: id }, { $set: { name: 'Ada ' } });
    assert.notEqual(await store.digest(), one);
    await things.updateOne({ _id: id }, { $set: { name: 'Ada' } });
    assert.equal(await store.digest(), one);
    assert.equal(await store.findOne('things', { _id: new ObjectId().toHexString() }), null);
  } finally {
    await client.close();
    await store.close();
  }
});
