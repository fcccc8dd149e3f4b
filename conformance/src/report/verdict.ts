// Verdict files: results/conformance/<impl>/<api>.json (schemas/verdict.schema.json).
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { resultsDir } from '@fairbench/harness/paths.ts';
import { newAjv } from '@fairbench/harness/json-schema.ts';
import type { CaseResult } from '../outcome.ts';
import verdictSchema from '../../schemas/verdict.schema.json' with { type: 'json' };

const ajv = newAjv();
const validateVerdict = ajv.compile(verdictSchema);

export const verdictDir = join(resultsDir, 'conformance');

/** What every verdict (conformance, contract) records of its run: when, and what passed. */
export interface VerdictTally {
  readonly startupMs?: number;
  readonly durationMs?: number;
  readonly recordedAt: string;
  readonly passed: number;
  readonly failed: number;
  readonly total: number;
  readonly failing: readonly string[];
}

export interface Verdict extends VerdictTally {
  readonly schemaVersion: 1;
  readonly implementation: string;
  readonly api: string;
  readonly status: 'passed' | 'failed' | 'skipped' | 'error';
  readonly reason?: string;
  readonly framework?: { readonly name: string; readonly version: string };
  readonly runtime?: { readonly name: string; readonly version: string };
  readonly provider?: 'local' | 'containers';
  /** Why that runtime: FAIRBENCH_RUNTIME, or what the automatic probe found. */
  readonly providerReason?: string;
  /** The implementation's image, in the containers runtime. */
  readonly implImage?: string;
  readonly databases?: readonly { readonly kind: string; readonly engine: string; readonly version: string }[];
  readonly dataset?: object;
  readonly implTreeHash: string;
  readonly specHash: string;
  readonly suiteHash: string;
  readonly commit?: string | null;
  readonly dirty?: boolean;
  readonly harnessNode?: string;
  readonly machine?: object;
  readonly cases?: readonly CaseResult[];
}

export function verdictFile(impl: string, api: string): string {
  return join(verdictDir, impl, `${api}.json`);
}

/** Writes a verdict after checking it against its schema: the benchmark gate relies on its shape. */
export async function writeVerdict(verdict: Verdict): Promise<string> {
  if (!validateVerdict(verdict)) {
    throw new Error(`verdict does not match verdict.schema.json: ${ajv.errorsText(validateVerdict.errors)}`);
  }
  const file = verdictFile(verdict.implementation, verdict.api);
  await mkdir(join(verdictDir, verdict.implementation), { recursive: true });
  await writeFile(file, `${JSON.stringify(verdict, null, 2)}\n`);
  return file;
}

export async function readVerdicts(): Promise<Verdict[]> {
  const verdicts: Verdict[] = [];
  let impls: string[];
  try {
    impls = (await readdir(verdictDir, { withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => e.name);
  } catch {
    return [];
  }
  for (const impl of impls.sort()) {
    // <api>.resilience.json beside it is make resilience's verdict, not a conformance one.
    for (const file of (await readdir(join(verdictDir, impl))).filter((f) => f.endsWith('.json') && !f.endsWith('.resilience.json')).sort()) {
      verdicts.push(JSON.parse(await readFile(join(verdictDir, impl, file), 'utf8')) as Verdict);
    }
  }
  return verdicts;
}
