// The users benchmark: scenario.yaml's flows at their arrival points, the paper's 1000
// users seeded fresh before every repetition, k6.js against the implementation, and the
// same flows alone in two tiers: through the Node MongoDB driver with bcrypt where the API
// pays it (baseline.ts, the driver tier) and through the Go driver, database only
// (apis/mongodb-common/mongo-native, the native tier).
import { fileURLToPath } from 'node:url';
import { databaseUrl } from '@fairbench/harness/api/dataset.ts';
import { type BenchModule, startBaselineClient, type RunSettings, checkChoices, selectCases, withNativeTier } from '@fairbench/bench/plugin.ts';
import { MONGO_NATIVE_CLIENT, type MongoNativeConfig } from '../../mongodb-common/mongo-native/launch.ts';
import type { UsersDataset } from '../dataset/model.ts';
import type { UsersBaselineConfig } from './baseline.ts';
import { USERS_COLLECTION } from '../dataset/load.ts';
import { expandUsers, loadUsersScenario, stepsEnv, type UsersCase } from './scenario.ts';

const BASELINE = fileURLToPath(new URL('./baseline.ts', import.meta.url));

let repetitionCounter = 0;
/** A short, unique lowercase prefix for one repetition's usernames. */
function runPrefix(): string {
  repetitionCounter++;
  return `${(Date.now() % 36 ** 5).toString(36)}${repetitionCounter.toString(36)}`;
}

const usersBench: BenchModule<UsersCase, UsersDataset> = {
  tiers: ['native', 'driver', 'http'],
  async plan(selection, scenarioFile) {
    checkChoices('MODEL', selection.models, ['arrivals'], 'users');
    const { scenario, text } = await loadUsersScenario(scenarioFile);
    const cases = selectCases(withNativeTier(expandUsers(scenario, { quick: (selection.quick ?? false) && !selection.cases })), selection);
    return { cases, models: ['arrivals'], text };
  },
  prepare(seeded, databases) {
    const admin = seeded.data.users.find((u) => u.role === 'admin');
    if (!admin) throw new Error('the users seed has no admin: the flows that need an admin token cannot run');
    const mongoUrl = databaseUrl(databases, 'mongo');
    return {
      k6Env: (c, s) => ({
        STEPS: stepsEnv(c.steps),
        USERS: c.users,
        SECONDS: c.seconds,
        DRAIN: c.drainSeconds,
        WARMUP: s.warmupSeconds,
        RUN: runPrefix(),
        ADMIN_USERNAME: admin.username,
        ADMIN_PASSWORD: admin.password,
      }),
      startBaseline: (c, s, opts) => {
        if (c.tier === 'native') {
          const native: MongoNativeConfig = {
            url: mongoUrl,
            pool: opts.poolSize,
            collection: USERS_COLLECTION,
            mode: 'arrivals',
            warmupSeconds: s.warmupSeconds,
            flow: c.steps.map((x) => x.op),
            users: c.users,
            seconds: c.seconds,
            drainSeconds: c.drainSeconds,
            prefix: runPrefix(),
          };
          return startBaselineClient(MONGO_NATIVE_CLIENT, native, c.id, opts);
        }
        const config: UsersBaselineConfig = {
          mongoUrl,
          poolSize: opts.poolSize,
          warmupSeconds: s.warmupSeconds,
          steps: c.steps,
          users: c.users,
          seconds: c.seconds,
          drainSeconds: c.drainSeconds,
          bcryptCost: c.bcryptCost,
          prefix: runPrefix(),
        };
        return startBaselineClient(BASELINE, config, c.id, opts);
      },
    };
  },
  limitSeconds: (c, s: RunSettings) => s.warmupSeconds + c.seconds + c.drainSeconds + 60,
  // The native client runs no bcrypt (api.yaml limit): its load lasts the arrivals or the database's work.
  plannedSeconds: (c, s: RunSettings) => s.warmupSeconds + (c.tier === 'native' ? c.plannedNativeSeconds : c.plannedSeconds),
};
export default usersBench;
