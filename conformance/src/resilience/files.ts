// The resilience data: the scenario file (conformance/resilience/scenarios.yaml, what the
// runner does and its bounds) and an API's apis/<name>/resilience/requests.yaml (what it sends).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'yaml';
import { repoRoot } from '@fairbench/harness/paths.ts';
import type { DbCheck } from '../case-files.ts';
import { newAjv } from '@fairbench/harness/json-schema.ts';
import scenariosSchema from '../../schemas/resilience-scenarios.schema.json' with { type: 'json' };
import apiSchema from '../../schemas/resilience-api.schema.json' with { type: 'json' };

export interface Bounds {
  readonly rate?: number;
  readonly before?: number;
  readonly stall?: number;
  readonly after?: number;
  readonly recoverWithin?: number;
  readonly sequences?: number;
  readonly concurrency?: number;
  readonly stallAt?: number;
  readonly idle?: number;
  readonly slow?: number;
  readonly answerWithin?: number;
  readonly factor?: number;
  readonly overload?: number;
  readonly memoryFactor?: number;
  /** Short form only: leave the scenario out. */
  readonly skip?: boolean;
}
export type ScenarioKind = 'stall' | 'writes' | 'shutdown' | 'restart' | 'slow-clients' | 'overload';
export interface Scenario extends Bounds {
  readonly id: string;
  readonly kind: ScenarioKind;
  readonly why: string;
}
interface ScenariosFile {
  readonly scenarios: readonly Scenario[];
  readonly short?: Readonly<Record<string, Bounds>>;
}

export interface ApiRequest {
  readonly method: string;
  readonly path: string;
  readonly json?: unknown;
  readonly auth?: string;
}
export interface WriteStep {
  readonly request: ApiRequest;
  readonly ack: number;
  readonly save?: Readonly<Record<string, string>>;
  readonly db?: readonly DbCheck[];
}
export interface WriteSequence {
  readonly id: string;
  readonly steps: readonly WriteStep[];
}
export interface Login {
  readonly request: ApiRequest;
  readonly token: string;
  readonly as: string;
}
export interface ApiResilience {
  readonly probe: ApiRequest;
  /** One login, or one per account the requests need. */
  readonly login?: Login | readonly Login[];
  readonly writes?: readonly WriteSequence[];
}

const ajv = newAjv();
const validateScenarios = ajv.compile<ScenariosFile>(scenariosSchema);
const validateApi = ajv.compile<ApiResilience>(apiSchema);

export const SCENARIOS_FILE = join(repoRoot, 'conformance', 'resilience', 'scenarios.yaml');

async function readValid<T>(file: string, validate: { (d: unknown): d is T; errors?: unknown }): Promise<T> {
  const data: unknown = parse(await readFile(file, 'utf8'));
  if (!validate(data)) throw new Error(`${file}: ${ajv.errorsText(validate.errors as never)}`);
  return data;
}

/** The scenarios, with the short form's bounds laid over them when `short`. */
export async function loadScenarios(short: boolean, file = SCENARIOS_FILE): Promise<Scenario[]> {
  const data = await readValid(file, validateScenarios);
  return data.scenarios.map((s) => (short ? { ...s, ...(data.short?.[s.id] ?? {}) } : s)).filter((s) => s.skip !== true);
}

/** apis/<name>/resilience/requests.yaml, or undefined when the API has none (then it is skipped, with that reason). */
export async function loadApiResilience(apiDir: string): Promise<ApiResilience | undefined> {
  const file = join(apiDir, 'resilience', 'requests.yaml');
  const exists = await readFile(file).then(
    () => true,
    () => false,
  );
  return exists ? readValid(file, validateApi) : undefined;
}
