// The users benchmark (APIS.md §2): bench/scenarios/users.yaml's flows at their arrival
// points, the paper's 1000 users in MongoDB (FerretDB) seeded fresh before every
// repetition, bench/k6/users.js, and the database-alone flows through the MongoDB driver.
import { join } from 'node:path';
import type { RunSettings } from '../../k6.ts';
import { startMongoBaseline } from '../../baseline/mongo-run.ts';
import { benchDir } from '../../paths.ts';
import schema from '../../../schemas/users-scenario.schema.json' with { type: 'json' };
import { fingerprintUsers } from '@fairbench/db/users/fingerprint.ts';
import { generateUsers } from '@fairbench/db/users/generate.ts';
import { loadUsers } from '@fairbench/db/users/load-mongo.ts';
import { PAPER_SCALE } from '@fairbench/db/users/model.ts';
import { selectCases, type PointCase } from '../select.ts';
import type { BenchApi, CaseSelection, Plan } from '../types.ts';
import { loadYaml } from '../yaml.ts';

export type UserOp = 'registerUser' | 'login' | 'listUsers' | 'getUser' | 'getMe' | 'adminListUsers' | 'updateUser' | 'deleteUser';

export interface FlowStep {
  readonly op: UserOp;
  readonly auth?: 'self' | 'admin';
}

export interface UsersScenario {
  readonly api: 'users';
  readonly script: string;
  readonly dataset: 'paper';
  readonly protocols: readonly 'rest'[];
  readonly drainSeconds: number;
  readonly bcryptCost: number;
  readonly flows: Readonly<Record<string, { readonly paper: number; readonly why: string; readonly steps: readonly FlowStep[] }>>;
  readonly loads: readonly { readonly flow: string; readonly users: number; readonly seconds: number; readonly quick?: boolean }[];
}

export interface UsersCase extends PointCase {
  readonly flow: string;
  readonly steps: readonly FlowStep[];
  readonly users: number;
  readonly seconds: number;
  readonly drainSeconds: number;
  readonly bcryptCost: number;
}

export const USERS_SCENARIO = join(benchDir, 'scenarios', 'users.yaml');

export async function loadUsersScenario(file = USERS_SCENARIO): Promise<{ scenario: UsersScenario; text: string }> {
  const { data, text } = await loadYaml<UsersScenario>(file, schema);
  for (const [name, flow] of Object.entries(data.flows)) {
    // A step sending the flow's own token needs the flow's login before it.
    const login = flow.steps.findIndex((s) => s.op === 'login');
    flow.steps.forEach((s, i) => {
      if (s.auth === 'self' && (login === -1 || login > i)) throw new Error(`${file}: flow ${name}: step ${i + 1} (${s.op}) sends the user's own token before any login step`);
    });
    if (flow.steps[0]?.op !== 'registerUser') throw new Error(`${file}: flow ${name} must begin with registerUser: its steps act on the user it registers`);
  }
  for (const l of data.loads) if (!data.flows[l.flow]) throw new Error(`${file}: load ${l.users}/${l.seconds}s names an unknown flow ${l.flow}`);
  return { scenario: data, text };
}

/** Every case of the file in run order (per load point: REST, then the database alone); QUICK leaves out the points marked quick: false. */
export function expandUsers(scenario: UsersScenario, opts: { quick: boolean }): UsersCase[] {
  return scenario.loads
    .filter((l) => !opts.quick || l.quick !== false)
    .flatMap((l) => {
      const flow = scenario.flows[l.flow]!;
      const point = `arrivals/${l.flow}-u${l.users}-t${l.seconds}`;
      return [...scenario.protocols, 'database' as const].map((protocol) => ({
        id: `${protocol}/${point}`,
        protocol,
        model: 'arrivals' as const,
        point,
        parameters: { scenario: flow.paper, users: l.users, seconds: l.seconds, flow: l.flow },
        flow: l.flow,
        steps: flow.steps,
        requestTypes: [...new Set(flow.steps.map((s) => s.op))],
        users: l.users,
        seconds: l.seconds,
        drainSeconds: scenario.drainSeconds,
        bcryptCost: scenario.bcryptCost,
      }));
    });
}

/** STEPS for bench/k6/users.js: op[:auth],… */
export function stepsEnv(steps: readonly FlowStep[]): string {
  return steps.map((s) => (s.auth ? `${s.op}:${s.auth}` : s.op)).join(',');
}

/** A seeded user as @fairbench/db/users exposes it (mongo-apis.md). */
export interface SeededUser {
  readonly id: string;
  readonly username: string;
  readonly password: string;
  readonly role: string;
}

let repetitionCounter = 0;
/** A short, unique lowercase prefix for one repetition's usernames. */
function runPrefix(): string {
  repetitionCounter++;
  return `${(Date.now() % 36 ** 5).toString(36)}${repetitionCounter.toString(36)}`;
}

export const usersBench: BenchApi<UsersCase> = {
  name: 'users',
  database: 'mongo',
  async plan(selection: CaseSelection): Promise<Plan<UsersCase>> {
    for (const m of selection.models ?? []) if (m !== 'arrivals') throw new Error(`MODEL must be arrivals for users, got '${m}'`);
    const { scenario, text } = await loadUsersScenario();
    const cases = selectCases(expandUsers(scenario, { quick: (selection.quick ?? false) && !selection.cases }), selection);
    return { cases, models: ['arrivals'], file: USERS_SCENARIO, text, script: scenario.script };
  },
  async prepare(db) {
    const scale = PAPER_SCALE;
    const data = await generateUsers(scale);
    const users: readonly SeededUser[] = data.users;
    const admin = users.find((u) => u.role === 'admin');
    if (!admin) throw new Error('the users seed has no admin: the flows that need an admin token cannot run');
    const loaded = await loadUsers(db.url, data);
    console.log(`seeded users: ${users.length} users (${users.filter((u) => u.role === 'admin').length} admins) in ${Math.round(loaded.milliseconds)} ms`);
    return {
      dataset: {
        name: 'users',
        seed: scale.seed,
        scale: { ...scale },
        fingerprint: fingerprintUsers(data),
        rows: loaded.rows,
        loadMs: Math.round(loaded.milliseconds),
      },
      // Every repetition starts from the seed: the same collection for every implementation and repetition.
      reset: async () => {
        await loadUsers(db.url, data);
      },
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
      startBaseline: (c, s, opts) =>
        startMongoBaseline(
          {
            api: 'users',
            mongoUrl: db.url,
            poolSize: opts.poolSize,
            warmupSeconds: s.warmupSeconds,
            seed: s.seed,
            users: { steps: c.steps, users: c.users, seconds: c.seconds, drainSeconds: c.drainSeconds, bcryptCost: c.bcryptCost, prefix: runPrefix(), adminId: admin.id },
          },
          c.id,
          opts,
        ),
    };
  },
  limitSeconds: (c, s: RunSettings) => s.warmupSeconds + c.seconds + c.drainSeconds + 60,
  plannedSeconds: (c, s: RunSettings) => s.warmupSeconds + c.seconds,
};
