// CROSSCHECK=wrk: after a closed-model case's repetitions, wrk sends the same kind of
// requests (the API's Lua script, apis/<api>/bench/index.ts wrkLoad) to the same running
// implementation for DURATION seconds, from the generator's cores. Where k6 and wrk reach
// about the same rate, k6 was not the limit; where wrk goes much faster, k6 was.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { PlannedCase, WrkLoad } from '../plan/api-module.ts';
import type { RunSettings } from '../load/k6.ts';
import type { CaseCrossCheck } from '../record/result-document.ts';
import { runWrk } from '../load/wrk.ts';

export function wrkCrossCheck<C extends PlannedCase>(
  load: ((c: C, settings: RunSettings) => WrkLoad | undefined) | undefined,
  settings: RunSettings,
  opts: { cores: readonly number[] | null; workDir: string },
): (c: C, server: { baseUrl: string }) => Promise<CaseCrossCheck | undefined> {
  return async (c, server) => {
    if (c.model !== 'closed') return undefined;
    const wrk = load?.(c, settings);
    if (!wrk) return undefined;
    const script = join(opts.workDir, `wrk-${c.id.replace(/[^\w.-]+/g, '_')}.lua`);
    await writeFile(script, wrk.script);
    const result = await runWrk(`${server.baseUrl}/`, {
      connections: wrk.connections,
      seconds: settings.durationSeconds,
      cores: opts.cores,
      workDir: opts.workDir,
      script,
    });
    console.log(
      `  ${c.id}: cross-check ${result.name}: ${Math.round(result.rate)} req/s (${result.errors} errors) at ${result.cpuPerRequestUs} µs of wrk CPU per request`,
    );
    return result;
  };
}
