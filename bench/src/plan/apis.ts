// The APIs the benchmark runs, found by folder (apis/<name>/api.yaml) with their
// benchmark modules, scenario files and k6 scripts as their manifests name them.
import { join } from 'node:path';
import { importPart } from '@fairbench/harness/api/dataset.ts';
import { loadApi, type Api } from '@fairbench/harness/api/manifest.ts';
import type { BenchModule } from './api-module.ts';

export interface BenchApi extends Api {
  readonly name: string;
  readonly module: BenchModule;
  /** Absolute paths of its scenario file and k6 script. */
  readonly scenarioFile: string;
  readonly script: string;
}

export async function benchApi(name: string): Promise<BenchApi> {
  const api = await loadApi(name);
  return {
    ...api,
    name,
    module: await importPart<BenchModule>(api, 'bench'),
    scenarioFile: join(api.dir, api.manifest.bench.scenario),
    script: join(api.dir, api.manifest.bench.script),
  };
}
