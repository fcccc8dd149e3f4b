// Database restart: a steady probe load; the database is stopped (its own stop signal, waited
// for) and started again on the same port and data. Requests meanwhile end within the
// implementation's bound with the reference answer or a 503/504 problem+json; the pool
// reconnects by itself, and correct answers are back within recoverWithin seconds of the
// database being ready again — the time recorded.
import type { Attempt } from '../client.ts';
import { openLoad, probeReference, SLACK_MS, toCall, type ScenarioContext, type ScenarioResult } from '../context.ts';
import type { Scenario } from '../files.ts';
import { judgeStall } from './stall.ts';

export async function runRestart(ctx: ScenarioContext, s: Scenario): Promise<ScenarioResult> {
  const rate = s.rate ?? 20;
  const before = s.before ?? 2;
  const after = s.after ?? 10;
  const ref = await probeReference(ctx);
  const limitMs = ctx.bounds.stallBoundMs + SLACK_MS;
  let stoppedAt = NaN;
  let readyAt = NaN;
  let restarting: Promise<void> | undefined;
  const call = toCall(ctx.api.probe, ctx.variables);
  const recoverWithinMs = (s.recoverWithin ?? 5) * 1000;
  const attempts: Attempt[] = await openLoad(ctx, call, rate, before + after, limitMs + 5_000, [
    {
      atSecond: before,
      run: () => {
        stoppedAt = ctx.clock();
        restarting = ctx.database.restart().then(() => void (readyAt = ctx.clock()));
      },
    },
  ]);
  await restarting;
  // A restart slower than planned must not leave recovery unjudged: the load goes on to recoverWithin (+1 s) after ready.
  const short = readyAt + recoverWithinMs + 1000 - ctx.clock();
  if (short > 0) attempts.push(...(await openLoad(ctx, call, rate, short / 1000, limitMs + 5_000)));
  const judged = judgeStall(attempts, ref, { stalledAt: stoppedAt, resumedAt: readyAt, limitMs, boundMs: ctx.bounds.stallBoundMs, recoverWithinMs });
  const { stallMs, statusesDuringStall, maxMsDuringStall, ...rest } = judged.figures;
  return { ...judged, figures: { ...rest, downMs: stallMs, statusesWhileDown: statusesDuringStall, maxMsWhileDown: maxMsDuringStall } };
}
