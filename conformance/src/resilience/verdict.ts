// The resilience verdict, beside the conformance one: results/conformance/<impl>/<api>.resilience.json.
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { verdictDir } from '../report/verdict.ts';
import type { ScenarioOutcome } from './run.ts';

export const RESILIENCE_SUFFIX = '.resilience.json';

export interface ResilienceVerdict {
  readonly implementation: string;
  readonly api: string;
  readonly status: 'passed' | 'failed' | 'skipped' | 'error';
  readonly reason?: string;
  /** The short form (make test) or the full scenarios. */
  readonly short: boolean;
  readonly bounds?: { readonly stallBoundMs: number; readonly shutdownBoundMs: number; readonly how: string };
  readonly database?: string;
  readonly recordedAt: string;
  readonly passed: number;
  readonly total: number;
  readonly scenarios: readonly ScenarioOutcome[];
}

export async function writeResilienceVerdict(v: ResilienceVerdict): Promise<string> {
  const file = join(verdictDir, v.implementation, `${v.api}${RESILIENCE_SUFFIX}`);
  await mkdir(join(verdictDir, v.implementation), { recursive: true });
  await writeFile(file, `${JSON.stringify(v, null, 2)}\n`);
  return file;
}

export async function readResilienceVerdicts(): Promise<ResilienceVerdict[]> {
  const out: ResilienceVerdict[] = [];
  const impls = await readdir(verdictDir, { withFileTypes: true }).catch(() => []);
  for (const impl of impls
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort()) {
    for (const f of (await readdir(join(verdictDir, impl))).filter((f) => f.endsWith(RESILIENCE_SUFFIX)).sort()) {
      out.push(JSON.parse(await readFile(join(verdictDir, impl, f), 'utf8')) as ResilienceVerdict);
    }
  }
  return out;
}

/** The matrix's resilience columns, from the verdicts on disk. */
export async function resilienceCells(): Promise<Record<string, Record<string, { status: string; passed: number; total: number; short: boolean }>>> {
  const cells: Record<string, Record<string, { status: string; passed: number; total: number; short: boolean }>> = {};
  for (const v of await readResilienceVerdicts())
    (cells[v.implementation] ??= {})[v.api] = { status: v.status, passed: v.passed, total: v.total, short: v.short };
  return cells;
}
