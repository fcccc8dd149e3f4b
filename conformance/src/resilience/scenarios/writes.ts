// No lost acknowledged write: the API's write sequences in a closed loop (`concurrency`
// at a time, `sequences` in all), optionally with the database stalled once `stallAt`
// have started; then every acknowledged sequence's last db checks are read in the
// database directly. A refusal must be a 503/504 problem+json, never a 500 or a reset.
import { stallServer } from '@fairbench/harness/provision/local/fault.ts';
import { checkDatabase } from '../../suites/flows.ts';
import { atPointer, substitute } from '../../flows/variables.ts';
import type { DbCheck } from '../../case-files.ts';
import { isUnavailableProblem } from '../client.ts';
import { sendCall, SLACK_MS, toCall, type ScenarioContext, type ScenarioResult } from '../context.ts';
import type { Scenario, WriteSequence } from '../files.ts';

type Outcome =
  | { readonly kind: 'acknowledged'; readonly seq: WriteSequence; readonly vars: Record<string, unknown> }
  | { readonly kind: 'refused' | 'partial' | 'failed'; readonly detail: string };

export async function runWrites(ctx: ScenarioContext, s: Scenario): Promise<ScenarioResult> {
  const writes = ctx.api.writes;
  if (!writes || !ctx.records) return { passed: true, failures: [], figures: { skipped: 'the API writes nothing' } };
  const total = s.sequences ?? 240;
  const timeoutMs = ctx.bounds.stallBoundMs + SLACK_MS + 5_000;
  let started = 0;
  let stall: { resume(): void } | undefined;
  let stallTimer: NodeJS.Timeout | undefined;
  const outcomes: Outcome[] = [];
  const t0 = ctx.clock();

  async function one(index: number): Promise<Outcome> {
    const seq = writes![index % writes!.length]!;
    const vars: Record<string, unknown> = { ...ctx.variables, n: ctx.nextN() };
    for (const [i, step] of seq.steps.entries()) {
      const a = await sendCall(ctx, toCall(step.request, vars), timeoutMs);
      if (a.status !== step.ack) {
        const detail = `${seq.id} step ${i + 1}: ${a.status || a.error} ${a.body.slice(0, 160)}`;
        if (!isUnavailableProblem(a)) return { kind: 'failed', detail };
        return { kind: i === 0 ? 'refused' : 'partial', detail };
      }
      const body: unknown = a.body === '' ? undefined : JSON.parse(a.body);
      for (const [name, pointer] of Object.entries(step.save ?? {})) vars[name] = atPointer(body, pointer);
    }
    return { kind: 'acknowledged', seq, vars };
  }

  async function worker(): Promise<void> {
    for (;;) {
      const index = started++;
      if (index >= total) return;
      if (s.stallAt !== undefined && index === s.stallAt) {
        stall = stallServer(ctx.database);
        stallTimer = setTimeout(() => stall?.resume(), (s.stall ?? 4) * 1000);
      }
      outcomes.push(await one(index));
    }
  }
  try {
    await Promise.all(Array.from({ length: s.concurrency ?? 8 }, worker));
  } finally {
    clearTimeout(stallTimer);
    stall?.resume();
  }
  const loadMs = Math.round(ctx.clock() - t0);

  // Read back every acknowledged sequence's final state.
  let found = 0;
  const lost: string[] = [];
  for (const o of outcomes) {
    if (o.kind !== 'acknowledged') continue;
    const checks = o.seq.steps.at(-1)!.db ?? [];
    const problems: string[] = [];
    for (const check of checks) problems.push(...(await checkDatabase({ records: ctx.records, variables: o.vars }, substituteCheck(check, o.vars))));
    if (problems.length === 0) found++;
    else lost.push(`${o.seq.id} n=${String(o.vars['n'])}: ${problems.join('; ')}`);
  }
  const count = (k: Outcome['kind']) => outcomes.filter((o) => o.kind === k).length;
  const failed = outcomes.filter((o): o is Extract<Outcome, { detail: string }> => o.kind === 'failed');
  const failures: string[] = [];
  if (lost.length > 0) failures.push(`${lost.length} acknowledged writes not in the database, e.g. ${lost.slice(0, 3).join(' | ')}`);
  if (failed.length > 0)
    failures.push(
      `${failed.length} sequences got neither their acknowledgement nor a 503/504 problem+json, e.g. ${failed
        .slice(0, 3)
        .map((f) => f.detail)
        .join(' | ')}`,
    );
  if (count('acknowledged') === 0) failures.push('no write was acknowledged at all');
  return {
    passed: failures.length === 0,
    failures,
    figures: {
      sequences: outcomes.length,
      acknowledged: count('acknowledged'),
      found,
      lost: lost.length,
      refused: count('refused'),
      partial: count('partial'),
      failed: failed.length,
      loadMs,
    },
  };
}

const substituteCheck = (check: DbCheck, vars: Record<string, unknown>): DbCheck => substitute(check, vars) as DbCheck;
