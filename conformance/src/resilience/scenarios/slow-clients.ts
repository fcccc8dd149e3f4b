// Slow and idle clients: `idle` connections that are opened and then send nothing, and `slow`
// ones that send a request's headers a line a second and never finish them, held for the
// whole load; meanwhile the probe at `rate` must keep getting the reference answer, each
// within `answerWithin` seconds. Every socket is closed at the end.
import net from 'node:net';
import type { Attempt } from '../client.ts';
import { countBy, openLoad, probeReference, sameAnswer, toCall, type ScenarioContext, type ScenarioResult } from '../context.ts';
import type { Scenario } from '../files.ts';

export async function runSlowClients(ctx: ScenarioContext, s: Scenario): Promise<ScenarioResult> {
  const ref = await probeReference(ctx);
  const { hostname, port } = new URL(ctx.running.baseUrl);
  if (hostname !== '127.0.0.1') throw new Error(`slow clients go to 127.0.0.1 only, not ${hostname}`);
  const sockets: net.Socket[] = [];
  const timers: NodeJS.Timeout[] = [];
  let closedByServer = 0;
  const open = (): net.Socket => {
    const socket = net.connect({ host: hostname, port: Number(port) });
    socket.on('error', () => {});
    socket.on('close', () => void closedByServer++);
    sockets.push(socket);
    return socket;
  };
  const withinMs = (s.answerWithin ?? 1) * 1000;
  let attempts: Attempt[];
  try {
    for (let i = 0; i < (s.idle ?? 300); i++) open();
    for (let i = 0; i < (s.slow ?? 50); i++) {
      const socket = open();
      socket.write(`GET ${ctx.api.probe.path} HTTP/1.1\r\nHost: 127.0.0.1\r\n`);
      let n = 0;
      timers.push(setInterval(() => socket.writable && socket.write(`X-Slow-${n++}: ${'x'.repeat(8)}\r\n`), 1000));
    }
    await new Promise((r) => setTimeout(r, 500)); // let them all connect before the load
    attempts = await openLoad(ctx, toCall(ctx.api.probe, ctx.variables), s.rate ?? 20, s.after ?? 8, withinMs + 5_000);
  } finally {
    for (const t of timers) clearInterval(t);
    const closedDuring = closedByServer;
    for (const socket of sockets) socket.destroy();
    closedByServer = closedDuring;
  }
  const failures: string[] = [];
  const wrong = attempts.filter((a) => !sameAnswer(a, ref));
  if (wrong.length > 0) failures.push(`${wrong.length} probe answers were not the reference answer: ${JSON.stringify(countBy(wrong))}`);
  const slow = attempts.filter((a) => a.end - a.start > withinMs);
  if (slow.length > 0)
    failures.push(`${slow.length} probes took longer than ${withinMs} ms, the longest ${Math.round(Math.max(...slow.map((a) => a.end - a.start)))} ms`);
  const ms = attempts.map((a) => a.end - a.start).sort((a, b) => a - b);
  return {
    passed: failures.length === 0,
    failures,
    figures: {
      requests: attempts.length,
      idle: s.idle ?? 300,
      slow: s.slow ?? 50,
      heldOpenClosedByServer: closedByServer,
      p95Ms: Math.round(ms[Math.floor(ms.length * 0.95)] ?? 0),
      maxMs: Math.round(ms.at(-1) ?? 0),
    },
  };
}
