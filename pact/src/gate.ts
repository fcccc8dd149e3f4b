// The benchmark gate's contract half: an implementation is benchmarked on an API that has a
// pact only with a passing provider verification recorded for the current implementation
// tree and contract (results/pact/<impl>/<api>.json). A missing or stale verdict is renewed by
// running make pact for the pair first; a failing one is refused.
import { loadApi } from '@fairbench/harness/api/manifest.ts';
import type { Implementation } from '@fairbench/harness/impl/manifest.ts';
import { withPact } from './apis.ts';
import { runPact } from './run.ts';
import { currentPactHashes, readPactVerdict, type PactVerdict } from './verdict.ts';

export interface PactGateRecord {
  status: 'passed';
  implTreeHash: string;
  contractHash: string;
  passed: number;
  total: number;
  reused: boolean;
  recordedAt: string;
}

export type PactDecision =
  | { readonly action: 'reuse'; readonly verdict: PactVerdict }
  | { readonly action: 'rerun'; readonly reason: string }
  | { readonly action: 'refuse'; readonly reason: string };

/** As the conformance gate: a skipped or errored verification is run again once before it is refused. */
export function decidePact(verdict: PactVerdict | undefined, current: { implTreeHash: string; contractHash: string }, justRan = false): PactDecision {
  if (verdict === undefined) return { action: 'rerun', reason: 'no pact verdict recorded' };
  const stale = (['implTreeHash', 'contractHash'] as const).filter((k) => verdict[k] !== current[k]);
  const what = { implTreeHash: 'the implementation', contractHash: 'the contract (pact module, k6 script or runner)' };
  if (stale.length > 0)
    return { action: 'rerun', reason: `the pact verdict is stale: ${stale.map((k) => what[k]).join(', ')} changed since ${verdict.recordedAt}` };
  if (verdict.status === 'passed') return { action: 'reuse', verdict };
  if (verdict.status !== 'failed' && !justRan)
    return { action: 'rerun', reason: `the last verification could not test it (${verdict.status}: ${(verdict.reason ?? 'no reason').split('\n')[0]})` };
  const detail =
    verdict.status === 'failed'
      ? `${verdict.failed} of ${verdict.total} interactions failed: ${verdict.failing.join('; ')}`
      : (verdict.reason ?? '').split('\n')[0];
  return {
    action: 'refuse',
    reason: `${verdict.implementation} × ${verdict.api} does not honour the benchmark client's contract (${verdict.status}: ${detail}); fix it and run make pact IMPL=${verdict.implementation} API=${verdict.api}`,
  };
}

export class PactGateRefusal extends Error {}

/** The passing verification the run may go on with, or null when the API has no pact. */
export async function passPactGate(impl: Implementation, apiName: string): Promise<PactGateRecord | null> {
  const api = await withPact(await loadApi(apiName));
  if (api === null) return null;
  const name = impl.manifest.name;
  let decision = decidePact(await readPactVerdict(name, apiName), await currentPactHashes(impl, api));
  let reused = true;
  if (decision.action === 'rerun') {
    console.log(`gate: ${decision.reason}: running make pact for ${name} × ${apiName} first`);
    // Where the benchmark runs (local unless FAIRBENCH_RUNTIME says otherwise), not make pact's automatic choice.
    const run = await runPact({ impls: [name], apis: [apiName], runtime: 'local' });
    if (run.consumers.some((c) => !c.passed))
      throw new PactGateRefusal(
        `gate: refusing to benchmark: the k6 script of ${apiName} fails its own consumer test (apis/${apiName}/bench/k6.js against the pact's mock server; make pact API=${apiName})`,
      );
    reused = false;
    decision = decidePact(await readPactVerdict(name, apiName), await currentPactHashes(impl, api), true);
    if (decision.action === 'rerun') throw new PactGateRefusal(`gate: make pact ran but left no current verdict for ${name} × ${apiName} (${decision.reason})`);
  }
  if (decision.action === 'refuse') throw new PactGateRefusal(`gate: refusing to benchmark: ${decision.reason}`);
  const v = decision.verdict;
  console.log(
    `gate: ${name} × ${apiName} honours the k6 script's pact (${v.passed}/${v.total} interactions, ${reused ? `verdict of ${v.recordedAt} reused` : 'just now'})`,
  );
  return { status: 'passed', implTreeHash: v.implTreeHash, contractHash: v.contractHash, passed: v.passed, total: v.total, reused, recordedAt: v.recordedAt };
}
