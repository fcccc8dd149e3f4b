// The database-alone baseline of the users and documents APIs: the operations an
// implementation runs for each request type, straight through the MongoDB driver with the
// same pool size, the same load shape (arrivals over a ramp / one sequential client /
// closed-loop clients), no HTTP, no framework, no JSON of a request. bcrypt (cost from
// the scenario) is paid where the API pays it and timed apart. Run as its own process,
// pinned to the generator's core, by mongo-run.ts:  node mongo-client.ts <config.json>
import { readFile, writeFile } from 'node:fs/promises';
import bcrypt from 'bcrypt';
import * as hdr from 'hdr-histogram-js';
import { MongoClient, ObjectId } from 'mongodb';
import type { LatencyUs, MongoBaselineConfig, MongoBaselineOutput } from './mongo-config.ts';

const config = JSON.parse(await readFile(process.argv[2]!, 'utf8')) as MongoBaselineConfig;
const out = process.argv[3]!;
const client = new MongoClient(config.mongoUrl, { maxPoolSize: config.poolSize });
await client.connect();
const db = client.db();

const newHistogram = () => hdr.build({ lowestDiscernibleValue: 1, highestTrackableValue: 3_600_000_000, numberOfSignificantValueDigits: 3 });
const all = newHistogram();
const types = new Map<string, { requests: number; errors: number; total: hdr.Histogram; parts: Map<string, hdr.Histogram> }>();
const errors: Record<string, number> = {};
let requests = 0;
let measuring = false;

/**
 * Times one operation of type `name`; `parts` collects the sub-timings it reports (µs).
 * It counts when it started while measuring, as k6 counts a request by its start.
 */
async function timed(name: string, op: (part: (label: string, us: number) => void) => Promise<boolean>): Promise<boolean> {
  const counted = measuring;
  const parts: [string, number][] = [];
  const t0 = performance.now();
  let ok = false;
  let failure: string | undefined;
  try {
    ok = await op((label, us) => parts.push([label, us]));
    if (!ok) failure = 'check';
  } catch (error) {
    failure = String((error as { code?: unknown }).code ?? '0');
  }
  if (!counted) return ok;
  const us = Math.max(1, Math.round((performance.now() - t0) * 1000));
  let t = types.get(name);
  if (!t) types.set(name, (t = { requests: 0, errors: 0, total: newHistogram(), parts: new Map() }));
  t.requests++;
  t.total.recordValue(us);
  all.recordValue(us);
  requests++;
  for (const [label, v] of parts) {
    let h = t.parts.get(label);
    if (!h) t.parts.set(label, (h = newHistogram()));
    h.recordValue(Math.max(1, Math.round(v)));
  }
  if (failure) {
    t.errors++;
    errors[failure] = (errors[failure] ?? 0) + 1;
  }
  return ok;
}

/** Runs `f` and reports its duration as a part. */
async function part<T>(report: (label: string, us: number) => void, label: string, f: () => Promise<T>): Promise<T> {
  const t0 = performance.now();
  try {
    return await f();
  } finally {
    report(label, (performance.now() - t0) * 1000);
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// ---- users -------------------------------------------------------------------------

async function usersRun(u: NonNullable<MongoBaselineConfig['users']>): Promise<void> {
  const users = db.collection('users');
  const PASSWORD = 'bench-password-1';
  const flow = async (username: string) => {
    let id = new ObjectId(); // replaced by registerUser, every flow's first step
    for (const { op } of u.steps) {
      const ok = await timed(op, async (report) => {
        switch (op) {
          case 'registerUser': {
            const hash = await part(report, 'bcrypt', () => bcrypt.hash(PASSWORD, u.bcryptCost));
            const r = await part(report, 'database', () => users.insertOne({ name: 'Bench', surname: 'User', username, password: hash, role: 'user' }));
            id = r.insertedId;
            return true;
          }
          case 'login': {
            const found = await part(report, 'database', () => users.findOne({ username }));
            if (!found) return false;
            return part(report, 'bcrypt', () => bcrypt.compare(PASSWORD, String(found['password'])));
          }
          case 'getUser':
          case 'getMe':
            return (await users.findOne({ _id: id })) !== null;
          case 'listUsers':
          case 'adminListUsers':
            return (await users.find({}).sort({ _id: 1 }).limit(100).toArray()).length === 100;
          case 'updateUser':
            return (await users.findOneAndUpdate({ _id: id }, { $set: { name: 'Renamed', surname: 'Bench' } }, { returnDocument: 'after' })) !== null;
          case 'deleteUser':
            return (await users.deleteOne({ _id: id })).deletedCount === 1;
        }
      });
      if (!ok) return;
    }
  };
  // Warm-up: one flow after another (as k6's one warm-up user), not measured.
  const warmEnd = Date.now() + config.warmupSeconds * 1000;
  for (let i = 0; Date.now() < warmEnd; i++) await flow(`b${u.prefix}w${i}`);
  // Arrivals: flow k starts k × seconds/users after the first, each runs once.
  measuring = true;
  const start = performance.now();
  const interval = (u.seconds * 1000) / u.users;
  const running: Promise<void>[] = [];
  for (let k = 0; k < u.users; k++) {
    const wait = start + k * interval - performance.now();
    if (wait > 1) await sleep(wait);
    running.push(flow(`b${u.prefix}m${k}`));
  }
  // Bounded like k6's gracefulStop: flows still running after the drain are abandoned (and not counted).
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([Promise.all(running), new Promise((r) => (timer = setTimeout(r, u.drainSeconds * 1000)))]);
  clearTimeout(timer);
  measuring = false;
}

// ---- documents ---------------------------------------------------------------------

async function documentsRun(d: NonNullable<MongoBaselineConfig['documents']>): Promise<void> {
  const documents = db.collection('documents');
  const { payload } = (await import('@fairbench/db/documents/payloads.js' as string)) as { payload: (kind: string, seed: number) => unknown };
  const bodies = Array.from({ length: 8 }, (_, i) => ({ kind: d.kind, payload: payload(d.kind, config.seed * 1000 + i) }));
  const body = (i: number) => structuredClone(bodies[i % bodies.length]!);
  const create = (i: number) => {
    let id: ObjectId | null = null;
    return timed('createDocument', async () => {
      id = (await documents.insertOne(body(i))).insertedId;
      return true;
    }).then(() => id);
  };
  const read = (id: ObjectId) => timed('getDocument', async () => (await documents.findOne({ _id: id })) !== null);
  const replace = (id: ObjectId, i: number) => timed('replaceDocument', async () => (await documents.findOneAndReplace({ _id: id }, body(i + 1), { returnDocument: 'after' })) !== null);
  const remove = (id: ObjectId) => timed('deleteDocument', async () => (await documents.deleteOne({ _id: id })).deletedCount === 1);
  const life = async (i: number) => {
    const id = await create(i);
    if (!id) return;
    await read(id);
    await replace(id, i);
    await remove(id);
  };
  const warmEnd = Date.now() + config.warmupSeconds * 1000;
  if (d.model === 'sequential') {
    for (let i = 0; Date.now() < warmEnd; i++) await life(i);
    measuring = true;
    const ids: (ObjectId | null)[] = [];
    for (let i = 0; i < d.requests; i++) ids.push(await create(i));
    for (const id of ids) if (id) await read(id);
    for (const [i, id] of ids.entries()) if (id) await replace(id, i);
    for (const id of ids) if (id) await remove(id);
    return;
  }
  // closed: `concurrency` clients looping; the warm-up is the same load, unmeasured; the
  // window opens and closes by the clock, inside a life too.
  const end = warmEnd + d.durationSeconds * 1000;
  const open = setTimeout(() => (measuring = true), warmEnd - Date.now());
  const close = setTimeout(() => (measuring = false), end - Date.now());
  let n = 0;
  await Promise.all(
    Array.from({ length: d.concurrency }, async () => {
      while (Date.now() < end) await life(n++);
    }),
  );
  clearTimeout(open);
  clearTimeout(close);
}

const summary = (h: hdr.Histogram): LatencyUs => ({
  min: h.totalCount ? h.minNonZeroValue : 0,
  mean: h.mean,
  median: h.getValueAtPercentile(50),
  p90: h.getValueAtPercentile(90),
  p95: h.getValueAtPercentile(95),
  p99: h.getValueAtPercentile(99),
  max: h.maxValue,
});

let measureFrom = 0;
const started = Date.now();
if (config.api === 'users') {
  measureFrom = started + config.warmupSeconds * 1000;
  await usersRun(config.users!);
} else {
  measureFrom = started + config.warmupSeconds * 1000;
  await documentsRun(config.documents!);
}
const measureUntil = Date.now();
await client.close();

await writeFile(
  out,
  JSON.stringify({
    measureFrom,
    measureUntil,
    requests,
    errors,
    latencyUs: summary(all),
    requestTypes: Object.fromEntries(
      [...types].map(([name, t]) => [
        name,
        { requests: t.requests, errors: t.errors, latencyUs: summary(t.total), ...(t.parts.size ? { partsUs: Object.fromEntries([...t.parts].map(([l, h]) => [l, summary(h)])) } : {}) },
      ]),
    ),
  } satisfies MongoBaselineOutput),
);
