// The APIs the suite runs, found by folder (apis/<name>/api.yaml) with their conformance
// modules; a module whose suites differ from its manifest's is refused when loaded.
import { importPart } from '@fairbench/harness/api/dataset.ts';
import { loadApi, loadApis, type Api } from '@fairbench/harness/api/manifest.ts';
import type { ConformanceModule } from './api-module.ts';

export interface ConformanceApi extends Api {
  readonly name: string;
  readonly module: ConformanceModule;
}

export async function withModule(api: Api): Promise<ConformanceApi> {
  const module = await importPart<ConformanceModule>(api, 'conformance');
  const declared = api.manifest.conformance.suites;
  if (declared.length !== module.suites.length || declared.some((s) => !module.suites.includes(s))) {
    throw new Error(`apis/${api.manifest.name}: api.yaml lists the suites ${declared.join(', ')}, its conformance module prepares ${module.suites.join(', ')}`);
  }
  return { ...api, name: api.manifest.name, module };
}

export async function conformanceApi(name: string): Promise<ConformanceApi> {
  return withModule(await loadApi(name));
}

export async function conformanceApis(): Promise<ConformanceApi[]> {
  return Promise.all((await loadApis()).map(withModule));
}
