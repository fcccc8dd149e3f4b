// make checklist's checks of what the runs recorded under results/: a verdict counts as done
// only when the gate would reuse it (conformance and pact: the same decision functions, on the
// same fingerprints), and a record without fingerprints (resilience, fuzzing) only when it is
// newer than the implementation's last change.
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Verdict } from '@fairbench/conformance/report/verdict.ts';
import type { ResilienceVerdict } from '@fairbench/conformance/resilience/verdict.ts';
import { decidePact } from '@fairbench/pact/gate.ts';
import type { PactVerdict } from '@fairbench/pact/verdict.ts';
import { decide } from '../execute/gate.ts';
import { fill, matching, readJson, type Context, type Outcome } from './context.ts';
import type { Check } from './steps.ts';

type Of<K extends Check['kind']> = Extract<Check, { kind: K }>;

const day = (iso: string): string => iso.slice(0, 16).replace('T', ' ');

/** A failing or untested verdict in one line. */
function notPassed(v: Pick<Verdict, 'status' | 'reason' | 'failed' | 'total' | 'failing'>): string {
  if (v.status === 'failed') return `failed: ${v.failed} of ${v.total} (${v.failing.slice(0, 3).join(', ')}${v.failing.length > 3 ? ', …' : ''})`;
  return `${v.status}: ${(v.reason ?? 'no reason').split('\n')[0]}`;
}

/**
 * The gate's decision (just run: a skipped or errored verdict is not retried), as a state: what it
 * would reuse is done, what it would re-run (a fingerprint changed) stale, what it would refuse missing.
 */
function asOutcome(action: 'reuse' | 'rerun' | 'refuse', why: string): Outcome {
  return { state: action === 'reuse' ? 'done' : action === 'rerun' ? 'stale' : 'missing', why };
}

export async function conformanceCheck(check: Of<'conformance'>, ctx: Context, api: string): Promise<Outcome> {
  const file = fill(check.verdict, ctx, api);
  const verdict = await readJson<Verdict>(ctx.root, file);
  if (verdict === undefined) return { state: 'missing', why: `no verdict (${file})` };
  const d = decide(verdict, await ctx.fingerprints.conformance(api), true);
  return asOutcome(
    d.action,
    d.action === 'reuse'
      ? `passed ${verdict.passed}/${verdict.total} (${verdict.provider ?? 'local'}, ${day(verdict.recordedAt)})`
      : d.action === 'rerun'
        ? d.reason
        : notPassed(verdict),
  );
}

export async function containersCheck(check: Of<'containers'>, ctx: Context): Promise<Outcome> {
  const files = (await matching(ctx.root, fill(check.verdicts, ctx))).filter((f) => !f.endsWith('.resilience.json'));
  const outcomes: Outcome[] = [];
  for (const file of files) {
    const v = await readJson<Verdict>(ctx.root, file);
    if (v?.provider !== 'containers') continue;
    const d = decide(v, await ctx.fingerprints.conformance(v.api), true);
    outcomes.push(
      asOutcome(
        d.action,
        d.action === 'reuse'
          ? `${v.api} passed in containers (${v.implImage ?? 'its image'}, ${day(v.recordedAt)})`
          : `${v.api}: ${d.action === 'rerun' ? d.reason : notPassed(v)}`,
      ),
    );
  }
  return (
    outcomes.find((o) => o.state === 'done') ??
    outcomes.find((o) => o.state === 'stale') ??
    outcomes[0] ?? { state: 'missing', why: 'no conformance verdict from the containers runtime' }
  );
}

export async function pactCheck(check: Of<'pact'>, ctx: Context, api: string): Promise<Outcome> {
  const current = await ctx.fingerprints.pact(api);
  if (current === null) return { state: 'done', why: `${api} has no pact` };
  const file = fill(check.verdict, ctx, api);
  const verdict = await readJson<PactVerdict>(ctx.root, file);
  if (verdict === undefined) return { state: 'missing', why: `no verdict (${file})` };
  const d = decidePact(verdict, current, true);
  return asOutcome(
    d.action,
    d.action === 'reuse'
      ? `passed ${verdict.passed}/${verdict.total} interactions (${day(verdict.recordedAt)})`
      : d.action === 'rerun'
        ? d.reason
        : notPassed(verdict),
  );
}

export async function resilienceCheck(check: Of<'resilience'>, ctx: Context, api: string): Promise<Outcome> {
  const file = fill(check.verdict, ctx, api);
  const v = await readJson<ResilienceVerdict>(ctx.root, file);
  if (v === undefined) return { state: 'missing', why: `no verdict (${file})` };
  if (v.status !== 'passed')
    return {
      state: 'missing',
      why: v.status === 'failed' ? `failed: ${v.passed} of ${v.total} scenarios passed` : notPassed({ ...v, failed: 0, failing: [] }),
    };
  const bounds = ctx.manifest instanceof Error ? undefined : ctx.manifest.resilience;
  if (bounds !== undefined && (v.bounds?.stallBoundMs !== bounds.stallBoundMs || v.bounds.shutdownBoundMs !== bounds.shutdownBoundMs))
    return {
      state: 'stale',
      why: `run with other bounds than impl.yaml's (stall ${v.bounds?.stallBoundMs ?? '?'} ms, shutdown ${v.bounds?.shutdownBoundMs ?? '?'} ms)`,
    };
  const changed = await ctx.fingerprints.changedAt();
  if (new Date(v.recordedAt) < changed)
    return { state: 'stale', why: `recorded ${day(v.recordedAt)}, before impl/${ctx.impl} last changed (${day(changed.toISOString())})` };
  return { state: 'done', why: `passed ${v.passed}/${v.total}${v.short ? ' (short form)' : ''} (${day(v.recordedAt)})` };
}

/** Schemathesis's logs (conformance/src/fuzz.ts): its closing line says whether it found anything (none: it was stopped). */
export async function fuzzCheck(check: Of<'fuzz'>, ctx: Context, api: string): Promise<Outcome> {
  const logs = await matching(ctx.root, fill(check.logs, ctx, api));
  if (logs.length === 0) return { state: 'missing', why: `no log (${fill(check.logs, ctx, api)})` };
  const failing: string[] = [];
  let oldest = Infinity;
  for (const log of logs) {
    const closing = /^=+ (.*) =+$/m.exec(
      (await readFile(join(ctx.root, log), 'utf8'))
        .split('\n')
        .filter((l) => l.trim() !== '')
        .at(-1) ?? '',
    )?.[1];
    if (closing === undefined || new RegExp(check.failed).test(closing)) failing.push(`${log} (${closing ?? 'no closing line'})`);
    oldest = Math.min(oldest, (await stat(join(ctx.root, log))).mtimeMs);
  }
  if (failing.length > 0) return { state: 'missing', why: `failed: ${failing.join(', ')}` };
  const changed = await ctx.fingerprints.changedAt();
  if (oldest < changed.getTime())
    return { state: 'stale', why: `run ${day(new Date(oldest).toISOString())}, before impl/${ctx.impl} last changed (${day(changed.toISOString())})` };
  return { state: 'done', why: `no failures in ${logs.length} run${logs.length === 1 ? '' : 's'} (${day(new Date(oldest).toISOString())})` };
}

/** A result document's gate names the implementation tree it measured. */
export async function benchCheck(check: Of<'bench'>, ctx: Context, api: string): Promise<Outcome> {
  const files = await matching(ctx.root, fill(check.results, ctx, api));
  const newest = files.at(-1);
  if (newest === undefined) return { state: 'missing', why: `no result (${fill(check.results, ctx, api)})` };
  const result = await readJson<{ runId?: string; gate?: { implTreeHash?: string } }>(ctx.root, newest);
  const { implTreeHash } = await ctx.fingerprints.conformance(api);
  return result?.gate?.implTreeHash === implTreeHash
    ? { state: 'done', why: `${files.length} result file${files.length === 1 ? '' : 's'}, the newest of run ${result.runId ?? '?'}` }
    : { state: 'stale', why: `the newest result (run ${result?.runId ?? '?'}) measured another implementation tree` };
}
