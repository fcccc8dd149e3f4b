// The users benchmark: scenario.yaml's flows at their arrival points, the paper's 1000
// users seeded fresh before every repetition, k6.js against the implementation, and the
// same flows through the MongoDB driver as the database-alone baseline (baseline.ts).
import { fileURLToPath } from 'node:url';
import { databaseUrl } from '@fairbench/harness/api/dataset.ts';
import type { BenchModule } from '@fairbench/bench/api-module.ts';
import { startBaselineClient } from '@fairbench/bench/baseline/launch.ts';
import type { RunSettings } from '@fairbench/bench/k6.ts';
import { checkChoices, selectCases } from '@fairbench/bench/select.ts';
import type { UsersDataset } from '../dataset/model.ts';
import type { UsersBaselineConfig } from './baseline.ts';
import { expandUsers, loadUsersScenario, stepsEnv, type UsersCase } from './scenario.ts';

const BASELINE = fileURLToPath(new URL('./baseline.ts', import.meta.url));

let repetitionCounter = 0;
/** A short, unique lowercase prefix for one repetition's usernames. */
function runPrefix(): string {
  repetitionCounter++;
  return `${(Date.now() % 36 ** 5).toString(36)}${repetitionCounter.toString(36)}`;
}

const usersBench: BenchModule<UsersCase, UsersDataset> = {
  tiers: ['driver', 'http'],
  async plan(selection, scenarioFile) {
    checkChoices('MODEL', selection.models, ['arrivals'], 'users');
    const { scenario, text } = await loadUsersScenario(scenarioFile);
    const cases = selectCases(expandUsers(scenario, { quick: (selection.quick ?? false) && !selection.cases }), selection);
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
  plannedSeconds: (c, s: RunSettings) => s.warmupSeconds + c.seconds,
};
export default usersBench;
