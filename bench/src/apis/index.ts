// The APIs the benchmark knows, by name (make bench API=…).
import { documentsBench } from './documents/index.ts';
import { forumBench } from './forum/index.ts';
import type { BenchApi, PlannedCase } from './types.ts';
import { usersBench } from './users/index.ts';

const APIS: Record<string, BenchApi<PlannedCase>> = {
  forum: forumBench,
  users: usersBench,
  documents: documentsBench,
};

export function benchApi(name: string): BenchApi<PlannedCase> {
  const api = APIS[name];
  if (!api) throw new Error(`no benchmark for the ${name} API (known: ${Object.keys(APIS).join(', ')})`);
  return api;
}

export const BENCH_APIS: readonly string[] = Object.keys(APIS);
