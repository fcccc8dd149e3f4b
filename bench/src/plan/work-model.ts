// An API's work model (apis/<api>/bench/work.yaml, bench/schemas/work.schema.json): what
// one answer of each request type must make the database do. The check: record/work-check.ts.
import { join } from 'node:path';
import type { Api } from '@fairbench/harness/api/manifest.ts';
import { isWorkCounter } from '@fairbench/harness/work/index.ts';
import schema from '../../schemas/work.schema.json' with { type: 'json' };
import type { WorkModel } from '../record/work-check.ts';
import { loadYamlIfPresent } from '../yaml.ts';

export const WORK_FILE = join('bench', 'work.yaml');

/** An API's work model, checked against the schema and its own consistency; null when it has none. */
export async function loadWorkModel(api: Pick<Api, 'dir'>): Promise<WorkModel | null> {
  const file = join(api.dir, WORK_FILE);
  const data = await loadYamlIfPresent<WorkModel>(file, schema);
  if (data === null) return null;
  for (const [type, { counters }] of Object.entries(data.requestTypes)) {
    for (const [counter, { min, max }] of Object.entries(counters)) {
      if (!isWorkCounter(data.engine, counter)) throw new Error(`${file}: ${type}: ${data.engine}'s reader gives no counter ${counter} (harness/src/work/)`);
      // Bounds of one parameter compare by their constants; a number and a parameter cannot be compared here.
      const [lo, hi] = [min, max].map((a) => (a === undefined ? undefined : typeof a === 'number' ? { p: '', n: a } : { p: a.parameter, n: a.plus ?? 0 }));
      if (lo && hi && lo.p === hi.p && lo.n > hi.n) throw new Error(`${file}: ${type} ${counter}: min is above max`);
    }
  }
  return data;
}
