// CPU time per request: what each process tree spent per completed request. On a shared
// core throughput ratios mix the framework's cost with the database's; µs of CPU per
// request of each tree separate them (the efficiency figure of the report).
import type { CpuPerRequest, Usage } from '../record/result-document.ts';

/** µs per request of each tree with a cpuSeconds; undefined when there is none or no request. */
export function cpuPerRequest(usage: Readonly<Record<keyof CpuPerRequest, Usage | undefined>>, requests: number): CpuPerRequest | undefined {
  if (requests <= 0) return undefined;
  const out: CpuPerRequest = {};
  for (const tree of ['server', 'database', 'generator'] as const) {
    const seconds = usage[tree]?.cpuSeconds;
    if (seconds !== undefined) out[tree] = Math.round((seconds / requests) * 1e7) / 10;
  }
  return Object.keys(out).length ? out : undefined;
}
