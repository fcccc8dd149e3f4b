// The conformance gate: an implementation is benchmarked on an API only with a passing
// verdict recorded for exactly the current implementation tree, spec and suite
// (results/conformance/<impl>/<api>.json). A missing or stale verdict is renewed by
// running the suite first; a failing pair is refused. An API with a pact also needs a passing
// provider verification of the pair (pact/src/gate.ts), renewed and refused the same way.
import { readFile } from 'node:fs/promises';
import { CannotRun } from '@fairbench/harness/cli/usage.ts';
import { implTreeHash } from '@fairbench/harness/fingerprint.ts';
import type { Implementation } from '@fairbench/harness/impl/manifest.ts';
import { verdictFile, type Verdict } from '@fairbench/conformance/report/verdict.ts';
import { runConformance, suiteFingerprints } from '@fairbench/conformance/run.ts';
import { passPactGate, PactGateRefusal, type PactGateRecord } from '@fairbench/pact/gate.ts';

export interface CurrentHashes {
  readonly implTreeHash: string;
  readonly specHash: string;
  readonly suiteHash: string;
}

export type GateDecision =
  | { readonly action: 'reuse'; readonly verdict: Verdict }
  | { readonly action: 'rerun'; readonly reason: string }
  | { readonly action: 'refuse'; readonly reason: string };

/**
 * What to do with a recorded verdict (undefined = none on disk), given the current hashes.
 * A skipped or errored run says something of the machine (a missing toolchain or image), not
 * of the code: it is run again once (`justRan` = false), and refused only when it was just run.
 */
export function decide(verdict: Verdict | undefined, current: CurrentHashes, justRan = false): GateDecision {
  if (verdict === undefined) return { action: 'rerun', reason: 'no conformance verdict recorded' };
  const stale = (['implTreeHash', 'specHash', 'suiteHash'] as const).filter((k) => verdict[k] !== current[k]);
  const what = { implTreeHash: 'the implementation', specHash: 'the spec', suiteHash: 'the conformance suite' };
  if (stale.length > 0) return { action: 'rerun', reason: `the verdict is stale: ${stale.map((k) => what[k]).join(', ')} changed since ${verdict.recordedAt}` };
  if (verdict.status === 'passed') return { action: 'reuse', verdict };
  if (verdict.status !== 'failed' && !justRan)
    return { action: 'rerun', reason: `the last run could not test it (${verdict.status}: ${verdict.reason?.split('\n')[0] ?? 'no reason'})` };
  return { action: 'refuse', reason: refusal(verdict) };
}

function refusal(v: Verdict): string {
  const head = `${v.implementation} × ${v.api} does not pass conformance (${v.status}`;
  if (v.status === 'failed') {
    const shown = v.failing.slice(0, 10).join(', ');
    const more = v.failing.length > 10 ? ` and ${v.failing.length - 10} more` : '';
    return `${head}: ${v.failed} of ${v.total} cases failed: ${shown}${more}); fix it and run make conformance IMPL=${v.implementation} API=${v.api}`;
  }
  return `${head}${v.reason ? `: ${v.reason.split('\n')[0]}` : ''}); a pair that does not pass is never benchmarked`;
}

export async function readVerdict(file: string): Promise<Verdict | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    return undefined;
  }
  return JSON.parse(text) as Verdict;
}

export async function currentHashes(impl: Implementation): Promise<CurrentHashes> {
  return { implTreeHash: await implTreeHash(impl.dir), ...(await suiteFingerprints(impl.manifest.name)) };
}

export interface GateRecord {
  status: 'passed';
  specHash: string;
  suiteHash: string;
  implTreeHash: string;
  reused: boolean;
  recordedAt: string;
  /** The contract verification the run was allowed on (APIs with a pact). */
  pact?: PactGateRecord;
}

/** A pair that does not pass conformance: one line, exit code 1 (runMain). */
export class GateRefusal extends CannotRun {}

/**
 * Returns the passing verdict the run may go on with (the result's `gate`), running the
 * suite when no current verdict exists; throws GateRefusal for a pair that fails.
 */
export async function passGate(impl: Implementation, api: string): Promise<GateRecord> {
  const name = impl.manifest.name;
  const file = verdictFile(name, api);
  let decision = decide(await readVerdict(file), await currentHashes(impl));
  let reused = true;
  if (decision.action === 'rerun') {
    console.log(`gate: ${decision.reason}: running conformance for ${name} × ${api} first`);
    // Where the benchmark runs (local unless FAIRBENCH_RUNTIME says otherwise), not make conformance's automatic choice.
    await runConformance({ impls: [name], apis: [api], runtime: 'local' });
    reused = false;
    decision = decide(await readVerdict(file), await currentHashes(impl), true);
    if (decision.action === 'rerun') throw new GateRefusal(`gate: conformance ran but left no current verdict for ${name} × ${api} (${decision.reason})`);
  }
  if (decision.action === 'refuse') throw new GateRefusal(`gate: refusing to benchmark: ${decision.reason}`);
  const v = decision.verdict;
  console.log(`gate: ${name} × ${api} passed conformance (${v.passed}/${v.total}, ${reused ? `verdict of ${v.recordedAt} reused` : 'just now'})`);
  let pact: PactGateRecord | null;
  try {
    pact = await passPactGate(impl, api);
  } catch (error) {
    throw error instanceof PactGateRefusal ? new GateRefusal(error.message) : error;
  }
  return {
    status: 'passed',
    specHash: v.specHash,
    suiteHash: v.suiteHash,
    implTreeHash: v.implTreeHash,
    reused,
    recordedAt: v.recordedAt,
    ...(pact ? { pact } : {}),
  };
}
