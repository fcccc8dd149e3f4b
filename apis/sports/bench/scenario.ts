// The sports scenario file (scenario.yaml beside this file): the paper's five user groups and
// its per-group ramp (Table 3), expanded into k6 ramping-vus stages. QUICK=1 scales the
// same shape down; DURATION_SCALE (0 < x <= 1) shortens a full run keeping its shape.
import { type PlannedCase, loadYaml } from '@fairbench/bench/plugin.ts';
import schema from './scenario.schema.json' with { type: 'json' };

export type Step = 'signUp' | 'login' | 'listFacilities' | 'listFields' | 'createField' | 'reserve' | 'accept' | 'rate';

export interface Group {
  readonly paper: string;
  readonly account: 'new' | 'seeded' | 'owner';
  readonly steps: readonly Step[];
}

export interface Ramp {
  readonly waves: number;
  readonly usersPerWave: number;
  readonly waveEverySeconds: number;
  readonly startupSeconds: number;
  readonly holdUntilSeconds: number;
  readonly shutdownSeconds: number;
}

export interface StressFailure {
  readonly meanMs: number;
  readonly meanSeconds: number;
  readonly errorRate: number;
  readonly errorSeconds: number;
}

export interface StressShape {
  readonly startUsers: number;
  readonly stepUsers: number;
  readonly stepSeconds: number;
  readonly rampSeconds: number;
  readonly maxUsers: number;
  readonly maxSeconds: number;
  readonly failure: StressFailure;
  readonly recovery: { readonly withinSeconds: number; readonly everyMs: number };
}

export interface SportsScenario {
  readonly api: 'sports';
  readonly dataset: 'paper';
  readonly protocols: readonly 'rest'[];
  readonly groups: Readonly<Record<string, Group>>;
  readonly ramp: Ramp;
  readonly quick: { readonly timeScale: number; readonly usersPerWave: number };
  readonly apdex: { readonly tMs: number; readonly fMs: number };
  readonly overTimeSeconds: number;
  readonly stress: StressShape & { readonly quick: StressShape };
}

/** One k6 ramping-vus stage: move to `target` users over `seconds`. */
export interface Stage {
  readonly seconds: number;
  readonly target: number;
}

export interface SportsCase extends PlannedCase {
  readonly groups: Readonly<Record<string, Group>>;
  /** Each group's users over time (every group runs the same stages). */
  readonly stages: readonly Stage[];
  readonly seconds: number;
  readonly apdex: { readonly tMs: number; readonly fMs: number };
  /** The response-time-over-time windows (s). */
  readonly overTimeSeconds: number;
  /** The stress case only: its stop conditions and recovery check (k6.js reads them). */
  readonly stress?: StressShape;
}

// What a step needs done before it in its group: the request that yields its input.
const NEEDS: Partial<Record<Step, Step>> = {
  accept: 'reserve',
  rate: 'accept',
  reserve: 'login',
  createField: 'login',
  listFacilities: 'login',
  listFields: 'login',
};

export async function loadSportsScenario(file: string): Promise<{ scenario: SportsScenario; text: string }> {
  const { data, text } = await loadYaml<SportsScenario>(file, schema);
  for (const [name, g] of Object.entries(data.groups)) {
    g.steps.forEach((s, i) => {
      const need = NEEDS[s];
      if (need !== undefined && !g.steps.slice(0, i).includes(need)) throw new Error(`${file}: group ${name}: ${s} needs ${need} before it`);
    });
    if ((g.account === 'new') !== (g.steps[0] === 'signUp')) throw new Error(`${file}: group ${name}: a new account's group begins with signUp, and only it`);
    if (g.steps.includes('createField') && g.account !== 'owner') throw new Error(`${file}: group ${name}: createField needs an owner's account`);
    if (g.steps.includes('reserve') && g.account === 'owner') throw new Error(`${file}: group ${name}: owners do not reserve`);
  }
  for (const shape of [data.stress, data.stress.quick]) {
    if (shape.rampSeconds > shape.stepSeconds) throw new Error(`${file}: stress: rampSeconds must not exceed stepSeconds`);
    if (shape.maxUsers < shape.startUsers) throw new Error(`${file}: stress: maxUsers must be at least startUsers`);
  }
  if (data.ramp.holdUntilSeconds < (data.ramp.waves - 1) * data.ramp.waveEverySeconds + data.ramp.startupSeconds) {
    throw new Error(`${file}: ramp: the last wave must be up before holdUntilSeconds`);
  }
  return { scenario: data, text };
}

/** Table 3 as stages: waves of users every waveEverySeconds (each over startupSeconds), held, then stopped over shutdownSeconds; every time × scale. */
export function rampStages(ramp: Ramp, usersPerWave: number, scale: number): Stage[] {
  const stages: Stage[] = [];
  const push = (seconds: number, target: number) => {
    if (seconds > 0) stages.push({ seconds: Math.round(seconds * scale * 1000) / 1000, target });
  };
  let now = 0;
  for (let w = 0; w < ramp.waves; w++) {
    push(w * ramp.waveEverySeconds - now, w * usersPerWave);
    push(ramp.startupSeconds, (w + 1) * usersPerWave);
    now = w * ramp.waveEverySeconds + ramp.startupSeconds;
  }
  push(ramp.holdUntilSeconds - now, ramp.waves * usersPerWave);
  push(ramp.shutdownSeconds, 0);
  return stages;
}

/**
 * The stress ramp as stages: startUsers reached over rampSeconds, then every stepSeconds
 * stepUsers more (each step over rampSeconds) until maxUsers, held there until maxSeconds
 * (the cap). No ramp-down: the load ends at the cap or when k6 aborts at the failure.
 */
export function stressStages(shape: StressShape): Stage[] {
  const stages: Stage[] = [];
  let now = 0;
  let users = 0;
  const push = (seconds: number, target: number) => {
    const s = Math.min(seconds, shape.maxSeconds - now);
    if (s > 0) stages.push({ seconds: Math.round(s * 1000) / 1000, target });
    now += Math.max(0, s);
  };
  while (now < shape.maxSeconds) {
    const target = Math.min(shape.maxUsers, users === 0 ? shape.startUsers : users + shape.stepUsers);
    if (target === users) {
      push(shape.maxSeconds - now, users);
      break;
    }
    push(shape.rampSeconds, target);
    push(shape.stepSeconds - shape.rampSeconds, target);
    users = target;
  }
  return stages;
}

/** DURATION_SCALE from the environment: 1 when unset. */
export function durationScale(raw: string | undefined): number {
  if (raw === undefined || raw === '') return 1;
  const x = Number(raw);
  if (!(x > 0 && x <= 1)) throw new Error(`DURATION_SCALE must be a number in (0, 1], got '${raw}'`);
  return x;
}

/** The load point, benchmarked and database-alone, and the stress point (benchmarked only). */
export function expandSports(scenario: SportsScenario, opts: { quick: boolean; scale: number }): SportsCase[] {
  return [...loadCases(scenario, opts), stressCase(scenario, opts.quick)];
}

function overTimeWindow(scenario: SportsScenario, quick: boolean): number {
  return quick ? Math.max(1, Math.round(scenario.overTimeSeconds * scenario.quick.timeScale)) : scenario.overTimeSeconds;
}

function stressCase(scenario: SportsScenario, quick: boolean): SportsCase {
  const shape = quick ? scenario.stress.quick : scenario.stress;
  const stages = stressStages(shape);
  const groups = Object.keys(scenario.groups).length;
  const point = 'closed/stress';
  return {
    id: `rest/${point}`,
    protocol: 'rest',
    model: 'closed',
    point,
    parameters: {
      groups,
      startUsers: groups * shape.startUsers,
      stepUsers: groups * shape.stepUsers,
      stepSeconds: shape.stepSeconds,
      capUsers: groups * shape.maxUsers,
      capSeconds: shape.maxSeconds,
    },
    requestTypes: [...new Set(Object.values(scenario.groups).flatMap((g) => g.steps))],
    groups: scenario.groups,
    stages,
    seconds: shape.maxSeconds,
    apdex: scenario.apdex,
    overTimeSeconds: overTimeWindow(scenario, quick),
    stress: shape,
    // The server goes on hashing the sign-ups and logins k6 abandoned for over a minute after it stops.
    freshServerEachRepetition: true,
    // Its measure is when the errors begin (the time to failure).
    failuresMeasured: true,
  };
}

function loadCases(scenario: SportsScenario, opts: { quick: boolean; scale: number }): SportsCase[] {
  const usersPerWave = opts.quick ? scenario.quick.usersPerWave : scenario.ramp.usersPerWave;
  const scale = (opts.quick ? scenario.quick.timeScale : 1) * opts.scale;
  const stages = rampStages(scenario.ramp, usersPerWave, scale);
  const seconds = stages.reduce((sum, s) => sum + s.seconds, 0);
  const groups = Object.keys(scenario.groups).length;
  const point = 'closed/load';
  const requestTypes = [...new Set(Object.values(scenario.groups).flatMap((g) => g.steps))];
  return [...scenario.protocols, 'database' as const].map((protocol) => ({
    id: `${protocol}/${point}`,
    protocol,
    model: 'closed' as const,
    point,
    parameters: { groups, peakUsers: groups * scenario.ramp.waves * usersPerWave, seconds, timeScale: scale },
    requestTypes,
    groups: scenario.groups,
    stages,
    seconds,
    apdex: scenario.apdex,
    overTimeSeconds: overTimeWindow(scenario, opts.quick),
    // The paper's load test counts failed requests (its error rate, a claim); so do we.
    failuresMeasured: true as const,
  }));
}
