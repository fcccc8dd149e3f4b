// Database stall: a steady probe load; the database's process group is paused (SIGSTOP)
// for `stall` seconds, then resumed. Every request ends within the implementation's bound
// with the reference answer or a 503/504 problem+json; after the resume the answers are
// the reference again within recoverWithin seconds, and stay so.
import { stallServer } from '@fairbench/harness/provision/local/fault.ts';
import { isUnavailableProblem, type Attempt } from '../client.ts';
import { countBy, openLoad, probeReference, sameAnswer, SLACK_MS, toCall, type ScenarioContext, type ScenarioResult } from '../context.ts';
import type { Scenario } from '../files.ts';

export async function runStall(ctx: ScenarioContext, s: Scenario): Promise<ScenarioResult> {
  const rate = s.rate ?? 20;
  const before = s.before ?? 2;
  const stallSeconds = s.stall ?? 10;
  const after = s.after ?? 7;
  const recoverWithinMs = (s.recoverWithin ?? 5) * 1000;
  const ref = await probeReference(ctx);
  const limitMs = ctx.bounds.stallBoundMs + SLACK_MS;
  let stalledAt = NaN;
  let resumedAt = NaN;
  let stall: { resume(): void } | undefined;
  let attempts: Attempt[];
  try {
    attempts = await openLoad(ctx, toCall(ctx.api.probe, ctx.variables), rate, before + stallSeconds + after, limitMs + 5_000, [
      { atSecond: before, run: () => ((stall = stallServer(ctx.database)), (stalledAt = ctx.clock())) },
      { atSecond: before + stallSeconds, run: () => (stall?.resume(), (resumedAt = ctx.clock())) },
    ]);
  } finally {
    stall?.resume();
  }
  return judgeStall(attempts, ref, { stalledAt, resumedAt, limitMs, recoverWithinMs, boundMs: ctx.bounds.stallBoundMs });
}

export interface StallTimes {
  readonly stalledAt: number;
  readonly resumedAt: number;
  /** The bound plus the client's slack. */
  readonly limitMs: number;
  readonly boundMs: number;
  readonly recoverWithinMs: number;
}

/** The verdict on one stall's attempts (pure: unit-tested on made-up attempts). */
export function judgeStall(attempts: readonly Attempt[], ref: Attempt, t: StallTimes): ScenarioResult {
  const failures: string[] = [];
  const slow = attempts.filter((a) => a.end - a.start > t.limitMs);
  if (slow.length > 0)
    failures.push(
      `${slow.length} requests took longer than the stated bound of ${t.boundMs} ms (+${SLACK_MS} ms slack), the longest ${Math.round(Math.max(...slow.map((a) => a.end - a.start)))} ms; sent ${slow
        .map((a) => `${Math.round(a.start - t.stalledAt)}`)
        .slice(0, 5)
        .join(', ')} ms after the stall began, answered ${JSON.stringify(countBy(slow))}`,
    );
  const wrong = attempts.filter((a) => !sameAnswer(a, ref) && !isUnavailableProblem(a) && !slow.includes(a));
  if (wrong.length > 0)
    failures.push(`${wrong.length} answers were neither the reference answer nor a 503/504 problem+json: ${JSON.stringify(countBy(wrong))}`);
  // Recovery: the first answer after the resume from which every later request is answered correctly.
  const later = attempts.filter((a) => a.start >= t.resumedAt || a.end >= t.resumedAt).sort((a, b) => a.start - b.start);
  let firstGood = -1;
  for (let i = later.length - 1; i >= 0 && sameAnswer(later[i]!, ref); i--) firstGood = i;
  const recoveryMs = firstGood < 0 ? null : Math.max(0, Math.round(later[firstGood]!.end - t.resumedAt));
  if (recoveryMs === null)
    failures.push(
      `no correct answer after the resume, to the end of the load (the last: ${later.at(-1)?.status || later.at(-1)?.error} ${later.at(-1)?.body.slice(0, 200) ?? ''})`,
    );
  else if (recoveryMs > t.recoverWithinMs) failures.push(`correct answers came back ${recoveryMs} ms after the resume (bound ${t.recoverWithinMs} ms)`);
  const during = attempts.filter((a) => a.start >= t.stalledAt && a.start < t.resumedAt);
  return {
    passed: failures.length === 0,
    failures,
    figures: {
      requests: attempts.length,
      stallMs: Math.round(t.resumedAt - t.stalledAt),
      statusesDuringStall: countBy(during),
      maxMsDuringStall: during.length === 0 ? null : Math.round(Math.max(...during.map((a) => a.end - a.start))),
      recoveryMs,
    },
  };
}
