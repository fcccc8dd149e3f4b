// The sports scenario file (scenario.yaml beside this file): the paper's five user groups and
// its per-group ramp (Table 3), expanded into k6 ramping-vus stages. QUICK=1 scales the
// same shape down; DURATION_SCALE (0 < x <= 1) shortens a full run keeping its shape.
import type { PlannedCase } from '@fairbench/bench/api-module.ts';
import { loadYaml } from '@fairbench/bench/yaml.ts';
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

export interface SportsScenario {
  readonly api: 'sports';
  readonly dataset: 'paper';
  readonly protocols: readonly 'rest'[];
  readonly groups: Readonly<Record<string, Group>>;
  readonly ramp: Ramp;
  readonly quick: { readonly timeScale: number; readonly usersPerWave: number };
  /** The paper's findings: the report reads them (bench/schemas/published.schema.json). */
  readonly published: Readonly<Record<string, unknown>>;
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
}

// What a step needs done before it in its group: the request that yields its input.
const NEEDS: Partial<Record<Step, Step>> = { accept: 'reserve', rate: 'accept', reserve: 'login', createField: 'login', listFacilities: 'login', listFields: 'login' };

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

/** DURATION_SCALE from the environment: 1 when unset. */
export function durationScale(raw: string | undefined): number {
  if (raw === undefined || raw === '') return 1;
  const x = Number(raw);
  if (!(x > 0 && x <= 1)) throw new Error(`DURATION_SCALE must be a number in (0, 1], got '${raw}'`);
  return x;
}

/** The load point, benchmarked and database-alone. */
export function expandSports(scenario: SportsScenario, opts: { quick: boolean; scale: number }): SportsCase[] {
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
  }));
}
