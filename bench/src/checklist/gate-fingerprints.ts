// The fingerprints make checklist compares recorded verdicts with: those the benchmark gate
// computes (conformance: implementation tree, spec, suite; pact: implementation tree,
// contract), and the time of the implementation's last change, for records that carry none.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { loadApi } from '@fairbench/harness/api/manifest.ts';
import { loadImplementation, type Implementation } from '@fairbench/harness/impl/manifest.ts';
import { repoRoot } from '@fairbench/harness/paths.ts';
import { withPact } from '@fairbench/pact/apis.ts';
import { currentPactHashes } from '@fairbench/pact/verdict.ts';
import { currentHashes } from '../execute/gate.ts';
import type { Fingerprints } from './context.ts';

const run = promisify(execFile);

export function gateFingerprints(name: string): Fingerprints {
  // Loaded when first asked (only a valid manifest's APIs are asked about); the suite's hash covers
  // every API's folders, so it is computed once, not once per API.
  let impl: Promise<Implementation> | undefined;
  let conformance: ReturnType<typeof currentHashes> | undefined;
  const implementation = () => (impl ??= loadImplementation(name));
  return {
    conformance: async () => (conformance ??= implementation().then(currentHashes)),
    pact: async (api) => {
      const withContract = await withPact(await loadApi(api));
      return withContract === null ? null : currentPactHashes(await implementation(), withContract);
    },
    changedAt: async () => {
      const dir = `impl/${name}`;
      // Uncommitted edits are untested by any record: the change is now.
      const { stdout: status } = await run('git', ['status', '--porcelain', '--', dir], { cwd: repoRoot });
      if (status.trim() !== '') return new Date();
      const { stdout } = await run('git', ['log', '-1', '--format=%cI', '--', dir], { cwd: repoRoot });
      return stdout.trim() === '' ? new Date() : new Date(stdout.trim());
    },
  };
}
