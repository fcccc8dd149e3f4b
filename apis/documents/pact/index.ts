// The documents benchmark's contract (make pact): what bench/k6.js sends — {kind, payload}
// bodies of the four kinds, as large as the paper's — and what it reads: the status, the
// kind and id it looks for in each answer, the 201's Location it follows to read, replace
// and delete the document, and Server-Timing. The stored payload is not read by the client,
// so it is not promised here (the conformance suite compares it exactly).
import { MongoClient, ObjectId } from 'mongodb';
import { MatchersV3 as M, type V3Interaction } from '@pact-foundation/pact';
import { databaseUrl } from '@fairbench/harness/api/dataset.ts';
import type { ConsumerRun, PactModule } from '@fairbench/pact/module.ts';
import { COLLECTION } from '../dataset/model.ts';
import { documentBody, KINDS, type DocumentKind } from '../dataset/payloads.js';

const EXISTS = 'a document of the kind exists';
// One example id per kind: the mock tells the kinds' reads apart by path.
const exampleId = (i: number) => `5f0000000000000000000${String(i + 1).padStart(3, '0')}`;
const OBJECT_ID = '^[0-9a-f]{24}$';
const timing = { 'Server-Timing': M.regex('^app;dur=[0-9]+(\\.[0-9]+)?$', 'app;dur=0.250') };
// k6.js with SEED=1: the i-th create sends payload seed 1000 + i, its replace seed 1001 + i.
const SEED = 1;

type Body = V3Interaction['withRequest']['body'];

const interactions: V3Interaction[] = KINDS.flatMap((kind: DocumentKind, i: number): V3Interaction[] => {
  const id = exampleId(i);
  const path = `/documents/${id}`;
  const state = [{ description: EXISTS, parameters: { id, kind } }];
  // A body of the kind's shape: the kind exactly, the payload by type (k6 sends varying ones).
  const sent = (seed: number): Body => ({ kind, payload: M.like(documentBody(kind, seed).payload) }) as Body;
  return [
    {
      uponReceiving: `createDocument ${kind}`,
      withRequest: { method: 'POST', path: '/documents', headers: { 'Content-Type': 'application/json' }, body: sent(SEED * 1000) },
      willRespondWith: {
        status: 201,
        headers: { ...timing, Location: M.regex('^/documents/[0-9a-f]{24}$', path) },
        body: { id: M.regex(OBJECT_ID, id), kind },
      },
    },
    {
      states: state,
      uponReceiving: `getDocument ${kind}`,
      withRequest: { method: 'GET', path },
      willRespondWith: { status: 200, headers: timing, body: { id, kind } },
    },
    {
      states: state,
      uponReceiving: `replaceDocument ${kind}`,
      withRequest: { method: 'PUT', path, headers: { 'Content-Type': 'application/json' }, body: sent(SEED * 1000 + 1) },
      willRespondWith: { status: 200, headers: timing, body: { id } },
    },
    {
      states: state,
      uponReceiving: `deleteDocument ${kind}`,
      withRequest: { method: 'DELETE', path },
      willRespondWith: { status: 204, headers: timing },
    },
  ];
});

// The paper's sequential protocol with one document per kind (the closed model sends the same four requests).
const runs: ConsumerRun[] = KINDS.map((kind: DocumentKind) => ({
  name: `sequential ${kind}`,
  env: { KIND: kind, MODEL: 'sequential', COUNT: 1, WARMUP: 0, SEED },
}));

const pactModule: PactModule = {
  interactions,
  runs,
  states: {
    // Written straight into the collection, as the seed is: the implementation never sees a create.
    [EXISTS]: async (ctx, params) => {
      const id = String(params.id);
      const kind = String(params.kind) as DocumentKind;
      const client = new MongoClient(databaseUrl(ctx.databases, 'mongo'));
      try {
        await client.connect();
        const doc = { kind, payload: documentBody(kind, SEED * 1000).payload };
        await client
          .db()
          .collection(COLLECTION)
          .replaceOne({ _id: new ObjectId(id) }, doc, { upsert: true });
      } finally {
        await client.close();
      }
    },
  },
};
export default pactModule;
