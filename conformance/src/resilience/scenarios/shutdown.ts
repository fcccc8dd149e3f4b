// Graceful shutdown: a steady probe load, SIGTERM to the implementation's process. Every
// answer is the reference (requests accepted before complete), every request without an
// answer was sent after the SIGTERM and refused (ECONNREFUSED, or a reset of a connection the
// server never accepted: no hang), and the process exits 0 within the implementation's bound.
import type { Attempt } from '../client.ts';
import { countBy, openLoad, probeReference, sameAnswer, toCall, type ScenarioContext, type ScenarioResult } from '../context.ts';
import type { Scenario } from '../files.ts';

export async function runShutdown(ctx: ScenarioContext, s: Scenario): Promise<ScenarioResult> {
  const rate = s.rate ?? 20;
  const before = s.before ?? 2;
  const after = s.after ?? 3;
  const ref = await probeReference(ctx);
  let signalledAt = NaN;
  let exitedAt = NaN;
  const proc = ctx.running.process;
  const exit = proc.exited.then((code) => ((exitedAt = ctx.clock()), code));
  const attempts: Attempt[] = await openLoad(ctx, toCall(ctx.api.probe, ctx.variables), rate, before + after, ctx.bounds.shutdownBoundMs, [
    { atSecond: before, run: () => (process.kill(proc.pid, 'SIGTERM'), (signalledAt = ctx.clock())) },
  ]);
  const timer = new Promise<'timeout'>((r) =>
    setTimeout(() => r('timeout'), Math.max(0, signalledAt + ctx.bounds.shutdownBoundMs + 1_000 - ctx.clock())).unref(),
  );
  const code = await Promise.race([exit, timer]);
  const failures: string[] = [];
  if (code === 'timeout') failures.push(`the process had not exited ${ctx.bounds.shutdownBoundMs} ms after SIGTERM`);
  else if (code !== 0) failures.push(`the process exited with ${String(code)} after SIGTERM, not 0`);
  const exitMs = Number.isNaN(exitedAt) ? null : Math.round(exitedAt - signalledAt);
  if (exitMs !== null && exitMs > ctx.bounds.shutdownBoundMs) failures.push(`exit ${exitMs} ms after SIGTERM (bound ${ctx.bounds.shutdownBoundMs} ms)`);
  const answered = attempts.filter((a) => a.status !== 0);
  const wrong = answered.filter((a) => !sameAnswer(a, ref));
  if (wrong.length > 0) failures.push(`${wrong.length} answers differ from the reference: ${JSON.stringify(countBy(wrong))}`);
  // After the SIGTERM a connection still in the listen backlog when the socket closes is reset by
  // the kernel, not served: for the client that is a refusal too (nothing ran). Before it, a reset
  // or a hang is a request the server accepted and dropped.
  const refused = (a: Attempt) => a.status === 0 && (a.error === 'ECONNREFUSED' || (a.error === 'ECONNRESET' && a.start >= signalledAt));
  const cut = attempts.filter((a) => a.status === 0 && !refused(a));
  if (cut.length > 0)
    failures.push(
      `${cut.length} requests were cut instead of answered or refused: ${JSON.stringify(countBy(cut))}, sent ${cut
        .map((a) => Math.round(a.start - signalledAt))
        .slice(0, 5)
        .join(', ')} ms after the SIGTERM`,
    );
  const inFlight = attempts.filter((a) => a.start < signalledAt && a.end > signalledAt);
  return {
    passed: failures.length === 0,
    failures,
    figures: {
      requests: attempts.length,
      exitCode: code === 'timeout' ? null : code,
      exitMs,
      inFlightAtSigterm: inFlight.length,
      inFlightCompleted: inFlight.filter((a) => sameAnswer(a, ref)).length,
      refusedAfter: attempts.filter(refused).length,
      statuses: countBy(attempts),
    },
  };
}
