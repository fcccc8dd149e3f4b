// The APIs with a consumer contract: those whose api.yaml names a pact module.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadApis, type Api } from '@fairbench/harness/api/manifest.ts';
import type { PactModule } from './module.ts';

// Pact's libraries report usage to the vendor unless told not to: everything stays on this machine.
process.env.PACT_DO_NOT_TRACK ??= 'true';

export interface PactApi extends Api {
  readonly name: string;
  readonly pact: PactModule;
  /** The k6 script the contract describes. */
  readonly script: string;
}

export async function withPact(api: Api): Promise<PactApi | null> {
  if (api.manifest.pact === undefined) return null;
  const file = join(api.dir, api.manifest.pact);
  const mod = (await import(pathToFileURL(file).href)) as { default?: PactModule };
  if (mod.default === undefined) throw new Error(`${file} has no default export (the API's pact module)`);
  return { ...api, name: api.manifest.name, pact: mod.default, script: join(api.dir, api.manifest.bench.script) };
}

/** Every API with a pact (an API without one is simply not contract-tested). */
export async function pactApis(names?: readonly string[]): Promise<PactApi[]> {
  const apis = (await loadApis()).filter((a) => !names || names.includes(a.manifest.name));
  return (await Promise.all(apis.map(withPact))).filter((a): a is PactApi => a !== null);
}
