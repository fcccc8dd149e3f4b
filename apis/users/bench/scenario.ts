// The users scenario file (scenario.yaml beside this file): the paper's four flows of
// request types and the arrival points (N users over T seconds) they run at.
import { type PlannedCase, loadYaml } from '@fairbench/bench/plugin.ts';
import schema from './scenario.schema.json' with { type: 'json' };
import { PAPER_SCALE } from '../dataset/model.ts';

export type UserOp = 'registerUser' | 'login' | 'listUsers' | 'getUser' | 'getMe' | 'adminListUsers' | 'updateUser' | 'deleteUser';

export interface FlowStep {
  readonly op: UserOp;
  readonly auth?: 'self' | 'admin';
}

export interface UsersScenario {
  readonly api: 'users';
  readonly dataset: 'paper';
  readonly protocols: readonly 'rest'[];
  readonly drainSeconds: number;
  readonly bcryptCost: number;
  readonly plannedMsPerHash: number;
  readonly plannedMsPerListedUser: number;
  readonly flows: Readonly<Record<string, { readonly paper: number; readonly why: string; readonly steps: readonly FlowStep[] }>>;
  readonly loads: readonly { readonly flow: string; readonly users: number; readonly seconds: number; readonly quick?: boolean }[];
}

export interface UsersCase extends PlannedCase {
  readonly flow: string;
  readonly steps: readonly FlowStep[];
  readonly users: number;
  readonly seconds: number;
  readonly drainSeconds: number;
  readonly bcryptCost: number;
  /** The plan's seconds of one load (scenario.yaml says how each tier's is measured). */
  readonly plannedSeconds: number;
  /** The native client's (it hashes nothing): its arrivals, or its pages when longer. */
  readonly plannedNativeSeconds: number;
}

export async function loadUsersScenario(file: string): Promise<{ scenario: UsersScenario; text: string }> {
  const { data, text } = await loadYaml<UsersScenario>(file, schema);
  for (const [name, flow] of Object.entries(data.flows)) {
    // A step sending the flow's own token needs the flow's login before it.
    const login = flow.steps.findIndex((s) => s.op === 'login');
    flow.steps.forEach((s, i) => {
      if (s.auth === 'self' && (login === -1 || login > i))
        throw new Error(`${file}: flow ${name}: step ${i + 1} (${s.op}) sends the user's own token before any login step`);
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
        ...plannedLoad(scenario, l, flow.steps, protocol === 'database'),
      }));
    });
}

/** A flow's bcrypt work per user: registering hashes a password, logging in checks one. */
const hashes = (steps: readonly FlowStep[]) => steps.filter((s) => s.op === 'registerUser' || s.op === 'login').length;
/** A flow's pages of 100 users per user, the database's longest work. */
const lists = (steps: readonly FlowStep[]) => steps.filter((s) => s.op === 'listUsers' || s.op === 'adminListUsers').length;

/**
 * A load lasts its arrivals or, when longer, the work its users queue: bcrypt on the server's
 * core and, for a database-alone client, the pages on the database's, side by side (the
 * database is pinned apart). A served load's flows end at their first 503 once they queue past
 * the server's 2-s database deadlines, so its pages never pile up that far: its bcrypt decides.
 */
function plannedLoad(scenario: UsersScenario, l: { users: number; seconds: number }, steps: readonly FlowStep[], databaseAlone: boolean) {
  // A page costs in proportion to the users in the collection: the seeded ones and, at most, the load's.
  const msPerList = scenario.plannedMsPerListedUser * (PAPER_SCALE.users + l.users);
  const pages = (l.users * lists(steps) * msPerList) / 1000;
  const bcrypt = (l.users * hashes(steps) * scenario.plannedMsPerHash) / 1000;
  // No load outlasts its arrivals and the drain: k6 (or the client) abandons what is left.
  const capped = (s: number) => Math.min(s, l.seconds + scenario.drainSeconds);
  return { plannedSeconds: capped(Math.max(l.seconds, bcrypt, databaseAlone ? pages : 0)), plannedNativeSeconds: capped(Math.max(l.seconds, pages)) };
}

/** STEPS for k6.js: op[:auth],… */
export function stepsEnv(steps: readonly FlowStep[]): string {
  return steps.map((s) => (s.auth ? `${s.op}:${s.auth}` : s.op)).join(',');
}
