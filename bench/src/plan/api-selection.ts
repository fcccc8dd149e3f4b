// Which APIs a make bench runs: API= as given (each served by every implementation named),
// else every API that all of them serve, in the order the first one's impl.yaml lists them.
// Each API is its own run (its own gate, database, seed and documents), all under one run id.
import { readFile } from 'node:fs/promises';
import { apiNames } from '@fairbench/harness/api/manifest.ts';
import { checkApiNames, checkImplNames, checkServes, UsageError } from '@fairbench/harness/cli/usage.ts';
import { loadImplementation } from '@fairbench/harness/impl/manifest.ts';
import { resultFileCandidates } from '../record/result.ts';
import type { BenchResult } from '../record/result-document.ts';

export interface ApiSelection {
  readonly apis: readonly string[];
  /** API= named them: an API whose cases the filters leave out is then an error, not skipped. */
  readonly explicit: boolean;
}

export async function selectApis(impls: readonly string[], given: readonly string[] | undefined): Promise<ApiSelection> {
  const names = [...new Set(impls)];
  await checkImplNames(names);
  const loaded = await Promise.all(names.map((n) => loadImplementation(n)));
  if (given) {
    await checkApiNames(given);
    for (const api of given) for (const impl of loaded) checkServes(impl, api);
    return { apis: [...new Set(given)], explicit: true };
  }
  const known = await apiNames();
  const apis = loaded[0]!.manifest.apis.filter((a) => known.includes(a) && loaded.every((i) => i.manifest.apis.includes(a)));
  if (apis.length === 0) {
    const served = loaded.map((i) => `${i.manifest.name}: ${i.manifest.apis.join(', ') || 'none'}`).join('; ');
    throw new UsageError(`${names.join(' and ')} serve no API in common here (${served}): name implementations that share one, or give API=`);
  }
  return { apis, explicit: false };
}

/**
 * What RESUME=<runId> finds of one API's part of a run: no document (the run stopped before
 * reaching it, or never ran it), a complete one, or one to continue.
 */
export async function resumeStatus(api: string, firstImpl: string, runId: string, resultsDir?: string): Promise<'none' | 'complete' | 'incomplete'> {
  for (const file of resultFileCandidates(api, firstImpl, runId, resultsDir)) {
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch {
      continue;
    }
    // A damaged document is for loadResume to report: continuing it is refused there.
    try {
      return (JSON.parse(text) as BenchResult).complete === false ? 'incomplete' : 'complete';
    } catch {
      return 'incomplete';
    }
  }
  return 'none';
}
