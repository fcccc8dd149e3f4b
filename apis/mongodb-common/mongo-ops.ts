// What each MongoDB operation the users and documents APIs make costs through the driver
// alone, one client, one operation at a time: the database's part of a request, without
// HTTP or a framework. Starts FerretDB through the local provider (the binary setup
// built), or uses a running server (its database's collections documents, plain and users
// are dropped and reloaded): `node apis/mongodb-common/mongo-ops.ts [--url mongodb://…] [--runs 200]`.
// Prints one line per operation (median, mean, p95 in ms); apis/mongodb-common/ferretdb.md keeps the figures
// (FerretDB section).
import { parseArgs } from 'node:util';
import { MongoClient, ObjectId, type Collection, type Db, type Document } from 'mongodb';
import { localProvider } from '@fairbench/harness/provision/local/index.ts';
import { generateDocuments } from '@fairbench/apis/documents/dataset/generate.ts';
import { loadDocuments } from '@fairbench/apis/documents/dataset/load.ts';
import { COLLECTION, PAPER_SCALE as DOCUMENTS_SCALE } from '@fairbench/apis/documents/dataset/model.ts';
import { documentBody } from '@fairbench/apis/documents/dataset/payloads.js';
import { generateUsers } from '@fairbench/apis/users/dataset/generate.ts';
import { loadUsers, USERS_COLLECTION } from '@fairbench/apis/users/dataset/load.ts';
import { PAPER_SCALE as USERS_SCALE } from '@fairbench/apis/users/dataset/model.ts';

const { values } = parseArgs({ options: { url: { type: 'string' }, runs: { type: 'string', default: '200' } } });
const RUNS = Number(values.runs);
if (!Number.isInteger(RUNS) || RUNS < 5 || RUNS > 10_000) throw new Error(`--runs must be an integer 5..10000, got ${values.runs}`);
const PLAIN_DOCS = 10_000;

/** Times `op` RUNS times in a row (after 5 untimed calls); i is the call's number. */
async function measure(label: string, op: (i: number) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < 5; i++) await op(RUNS + i);
  const ms: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    await op(i);
    ms.push(performance.now() - started);
  }
  ms.sort((a, b) => a - b);
  const at = (q: number) => ms[Math.min(ms.length - 1, Math.floor(q * ms.length))]!.toFixed(2);
  const mean = (ms.reduce((s, x) => s + x, 0) / ms.length).toFixed(2);
  console.log(`${label.padEnd(62)} median ${at(0.5).padStart(8)}  mean ${mean.padStart(8)}  p95 ${at(0.95).padStart(8)}`);
}

const pick = <T>(items: readonly T[], i: number): T => items[(i * 7919) % items.length]!;

async function documentsOps(url: string, db: Db): Promise<void> {
  const data = generateDocuments(DOCUMENTS_SCALE);
  await loadDocuments(url, data);
  const documents: Collection<Document> = db.collection(COLLECTION);
  const ids = (kind: string) => data.documents.filter((d) => d.kind === kind).map((d) => new ObjectId(d.id));
  const [texts, tables] = [ids('text'), ids('table')];
  const at = `${data.documents.length} documents (${DOCUMENTS_SCALE.perKind} per kind)`;
  await measure(`documents @ ${at}: findOne text by _id`, (i) => documents.findOne({ _id: pick(texts, i) }));
  await measure(`documents @ ${at}: replaceOne text`, (i) => documents.replaceOne({ _id: pick(texts, i) }, documentBody('text', i)));
  await measure(`documents @ ${at}: findOneAndReplace text`, (i) =>
    documents.findOneAndReplace({ _id: pick(texts, i) }, documentBody('text', i), { returnDocument: 'after' }),
  );
  const table = documentBody('table', 1);
  await measure(`documents @ ${at}: findOne table by _id`, (i) => documents.findOne({ _id: pick(tables, i) }));
  await measure(`documents @ ${at}: replaceOne table (${(JSON.stringify(table).length / 1024).toFixed(0)} KB)`, (i) =>
    documents.replaceOne({ _id: pick(tables, i) }, documentBody('table', i)),
  );
  const created = await freshIds(documents, () => documentBody('text', 0));
  await measure(`documents @ ${at}: deleteOne text`, (i) => documents.deleteOne({ _id: created[i]! }));
}

/** RUNS + 5 new documents for deleteOne to remove (in measure's call order). */
async function freshIds(collection: Collection<Document>, body: () => Document): Promise<ObjectId[]> {
  const docs = Array.from({ length: RUNS + 5 }, () => ({ _id: new ObjectId(), ...body() }));
  await collection.insertMany(docs);
  return [...docs.slice(5).map((d) => d._id), ...docs.slice(0, 5).map((d) => d._id)];
}

async function plainOps(db: Db): Promise<void> {
  const plain = db.collection('plain');
  await plain.drop().catch(() => undefined);
  const ids = Array.from({ length: PLAIN_DOCS }, () => new ObjectId());
  const body = (i: number) => ({ n: i, pad: 'x'.repeat(1000) });
  for (let i = 0; i < ids.length; i += 1000) await plain.insertMany(ids.slice(i, i + 1000).map((_id, j) => ({ _id, ...body(i + j) })));
  const at = `${PLAIN_DOCS} × 1 KB`;
  await measure(`plain @ ${at}: findOne by _id`, (i) => plain.findOne({ _id: pick(ids, i) }));
  await measure(`plain @ ${at}: replaceOne`, (i) => plain.replaceOne({ _id: pick(ids, i) }, body(i)));
  const created = await freshIds(plain, () => body(0));
  await measure(`plain @ ${at}: deleteOne`, (i) => plain.deleteOne({ _id: created[i]! }));
}

async function usersOps(url: string, db: Db): Promise<void> {
  const data = await generateUsers(USERS_SCALE);
  await loadUsers(url, data);
  const users = db.collection(USERS_COLLECTION);
  const at = `${data.users.length} users`;
  await measure(`users @ ${at}: findOne by username (login)`, (i) => users.findOne({ username: pick(data.users, i).username }));
  await measure(`users @ ${at}: findOne by _id (/me, get)`, (i) => users.findOne({ _id: new ObjectId(pick(data.users, i).id) }));
  await measure(`users @ ${at}: find sort _id limit 100 (list)`, () => users.find({}).sort({ _id: 1 }).limit(100).toArray());
  await measure(`users @ ${at}: findOneAndUpdate $set by _id`, (i) =>
    users.findOneAndUpdate({ _id: new ObjectId(pick(data.users, i).id) }, { $set: { name: `N${i}` } }, { returnDocument: 'after' }),
  );
}

const server = values.url ? undefined : await localProvider.start('mongo');
const url = values.url ?? server!.url;
const client = new MongoClient(url, { directConnection: true });
try {
  await client.connect();
  const info = await client.db('admin').command({ buildInfo: 1 });
  console.log(`${String(info['ferretdbVersion'] ?? `MongoDB ${String(info['version'])}`)}, ${RUNS} calls per operation, one client`);
  const db = client.db();
  await documentsOps(url, db);
  await plainOps(db);
  await usersOps(url, db);
} finally {
  await client.close();
  await server?.stop();
}
