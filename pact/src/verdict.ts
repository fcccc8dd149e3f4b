// Contract verdicts: results/pact/<impl>/<api>.json, one per implementation × API, beside the
// conformance verdict of the pair; the compliance matrix shows them as a column per API and
// the benchmark gate requires a passing one recorded for the current implementation and contract.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, relative } from 'node:path';
import { implTreeHash, onlyDefectsOf, treeHash } from '@fairbench/harness/fingerprint.ts';
import { repoRoot } from '@fairbench/harness/paths.ts';
import type { VerdictTally } from '@fairbench/conformance/report/verdict.ts';
import type { PactApi } from './apis.ts';
import { pactVerdictFile } from './paths.ts';

export interface InteractionResult {
  readonly description: string;
  readonly passed: boolean;
  /** The verifier's complaint, for a failed interaction. */
  readonly problem?: string;
}

export interface PactVerdict extends VerdictTally {
  readonly schemaVersion: 1;
  readonly implementation: string;
  readonly api: string;
  readonly status: 'passed' | 'failed' | 'skipped' | 'error';
  readonly reason?: string;
  readonly implTreeHash: string;
  /** The contract: the API's pact module and the k6 script it describes, and the runner. */
  readonly contractHash: string;
  /** Where the pact came from: the local file the consumer test wrote, or a broker. */
  readonly source?: string;
  readonly provider?: 'local' | 'containers';
  /** Time of the verification alone (states and requests), without build, seed and start. */
  readonly verifyMs?: number;
  readonly interactions?: readonly InteractionResult[];
}

/**
 * The contract a verdict of `impl` depends on: the pact module's folder with that
 * implementation's planted defects alone (apis/<api>/pact/mutants/<impl>.yaml), the k6 script
 * and the runner. Without `impl` (the consumer test's stamp) no planted defect counts.
 */
export async function contractHash(api: PactApi, impl?: string): Promise<string> {
  const of = (p: string) => relative(repoRoot, p);
  return treeHash(['pact/src', of(dirnameOfModule(api)), of(api.script)], onlyDefectsOf(impl === undefined ? [] : [impl]));
}

function dirnameOfModule(api: PactApi): string {
  return dirname(`${api.dir}/${api.manifest.pact ?? ''}`);
}

export async function currentPactHashes(
  impl: { dir: string; manifest: { name: string } },
  api: PactApi,
): Promise<{ implTreeHash: string; contractHash: string }> {
  return { implTreeHash: await implTreeHash(impl.dir), contractHash: await contractHash(api, impl.manifest.name) };
}

export async function writePactVerdict(verdict: PactVerdict): Promise<string> {
  const file = pactVerdictFile(verdict.implementation, verdict.api);
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, `${JSON.stringify(verdict, null, 2)}\n`);
  return file;
}

export async function readPactVerdict(impl: string, api: string): Promise<PactVerdict | undefined> {
  const text = await readFile(pactVerdictFile(impl, api), 'utf8').catch(() => undefined);
  return text === undefined ? undefined : (JSON.parse(text) as PactVerdict);
}
