// The users API's database-alone client: each flow's operations as an implementation runs
// them, straight through the MongoDB driver with the same pool size and the same arrivals
// (N users over T seconds, each running its flow once), no HTTP, no framework, no tokens.
// bcrypt (the scenario's cost) is paid where the API pays it and timed apart from the
// database. Started by the runner as its own process, pinned to the generator's core:
//   node baseline.ts <config.json> <out.json>
import bcrypt from 'bcrypt';
import { MongoClient, ObjectId } from 'mongodb';
import { clientArgs, part, Recorder, sleep } from '@fairbench/bench/plugin.ts';
import type { FlowStep } from './scenario.ts';

export interface UsersBaselineConfig {
  readonly mongoUrl: string;
  readonly poolSize: number;
  readonly warmupSeconds: number;
  readonly steps: readonly FlowStep[];
  readonly users: number;
  readonly seconds: number;
  readonly drainSeconds: number;
  readonly bcryptCost: number;
  /** Makes this repetition's usernames unique. */
  readonly prefix: string;
}

const { config: u, out } = await clientArgs<UsersBaselineConfig>();
const client = new MongoClient(u.mongoUrl, { maxPoolSize: u.poolSize });
await client.connect();
const users = client.db().collection('users');
const recorder = new Recorder();
const PASSWORD = 'bench-password-1';

async function flow(username: string): Promise<void> {
  let id = new ObjectId(); // replaced by registerUser, every flow's first step
  // An implementation loads the token's user before a change or an admin list (its stored
  // role authorizes it, and a deleted user's token is refused): the limit does that read too.
  const caller = async () => (await users.findOne({ _id: id })) !== null;
  for (const { op } of u.steps) {
    const ok = await recorder.timed(op, async (report) => {
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
          return (await users.find({}).sort({ _id: 1 }).limit(100).toArray()).length === 100;
        case 'adminListUsers':
          return (await caller()) && (await users.find({}).sort({ _id: 1 }).limit(100).toArray()).length === 100;
        case 'updateUser':
          return (
            (await caller()) &&
            (await users.findOneAndUpdate({ _id: id }, { $set: { name: 'Renamed', surname: 'Bench' } }, { returnDocument: 'after' })) !== null
          );
        case 'deleteUser':
          return (await caller()) && (await users.deleteOne({ _id: id })).deletedCount === 1;
      }
    });
    if (!ok) return;
  }
}

const measureFrom = Date.now() + u.warmupSeconds * 1000;
// Warm-up: one flow after another (as k6's one warm-up user), not measured.
for (let i = 0; Date.now() < measureFrom; i++) await flow(`b${u.prefix}w${i}`);
// Arrivals: flow k starts k × seconds/users after the first, each runs once.
recorder.measuring = true;
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
recorder.measuring = false;
const measureUntil = Date.now();
await client.close();
await recorder.write(out, { from: measureFrom, until: measureUntil });
