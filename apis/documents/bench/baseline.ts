// The documents API's database-alone client: create, read, replace and delete of one
// payload shape straight through the MongoDB driver with the same pool size and the same
// load shape (one sequential client, or the case's clients looping), no HTTP, no
// framework, no JSON of a request. Started by the runner as its own process, pinned to
// the generator's core:  node baseline.ts <config.json> <out.json>
import { MongoClient, type ObjectId } from 'mongodb';
import { clientArgs, Recorder } from '@fairbench/bench/plugin.ts';
import { COLLECTION } from '../dataset/model.ts';
import { payload } from '../dataset/payloads.js';

export interface DocumentsBaselineConfig {
  readonly mongoUrl: string;
  readonly poolSize: number;
  readonly warmupSeconds: number;
  readonly seed: number;
  readonly kind: string;
  readonly model: 'sequential' | 'closed';
  readonly requests: number;
  readonly concurrency: number;
  readonly durationSeconds: number;
}

const { config: d, out } = await clientArgs<DocumentsBaselineConfig>();
const client = new MongoClient(d.mongoUrl, { maxPoolSize: d.poolSize });
await client.connect();
const documents = client.db().collection(COLLECTION);
const recorder = new Recorder();

const bodies = Array.from({ length: 8 }, (_, i) => ({ kind: d.kind, payload: payload(d.kind as Parameters<typeof payload>[0], d.seed * 1000 + i) }));
const body = (i: number) => structuredClone(bodies[i % bodies.length]!);
const create = async (i: number) => {
  let id: ObjectId | null = null;
  await recorder.timed('createDocument', async () => {
    id = (await documents.insertOne(body(i))).insertedId;
    return true;
  });
  return id as ObjectId | null;
};
const read = (id: ObjectId) => recorder.timed('getDocument', async () => (await documents.findOne({ _id: id })) !== null);
const replace = (id: ObjectId, i: number) =>
  recorder.timed('replaceDocument', async () => (await documents.findOneAndReplace({ _id: id }, body(i + 1), { returnDocument: 'after' })) !== null);
const remove = (id: ObjectId) => recorder.timed('deleteDocument', async () => (await documents.deleteOne({ _id: id })).deletedCount === 1);
const life = async (i: number) => {
  const id = await create(i);
  if (!id) return;
  await read(id);
  await replace(id, i);
  await remove(id);
};

const measureFrom = Date.now() + d.warmupSeconds * 1000;
if (d.model === 'sequential') {
  for (let i = 0; Date.now() < measureFrom; i++) await life(i);
  recorder.measuring = true;
  const ids: (ObjectId | null)[] = [];
  for (let i = 0; i < d.requests; i++) ids.push(await create(i));
  for (const id of ids) if (id) await read(id);
  for (const [i, id] of ids.entries()) if (id) await replace(id, i);
  for (const id of ids) if (id) await remove(id);
} else {
  // closed: `concurrency` clients looping; the warm-up is the same load, unmeasured; the
  // window opens and closes by the clock, inside a life too.
  const end = measureFrom + d.durationSeconds * 1000;
  const open = setTimeout(() => (recorder.measuring = true), measureFrom - Date.now());
  const close = setTimeout(() => (recorder.measuring = false), end - Date.now());
  let n = 0;
  await Promise.all(
    Array.from({ length: d.concurrency }, async () => {
      while (Date.now() < end) await life(n++);
    }),
  );
  clearTimeout(open);
  clearTimeout(close);
}
const measureUntil = Date.now();
await client.close();
await recorder.write(out, { from: measureFrom, until: measureUntil });
