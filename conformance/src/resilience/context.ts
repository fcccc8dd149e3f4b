// What every resilience scenario gets: the running implementation, its database (to stall),
// the API's requests, the flows fixtures to fill them and read the database, and the
// bounds the implementation's manifest states.
import type { LocalDatabaseServer } from '@fairbench/harness/provision/local/index.ts';
import type { RunningImplementation } from '@fairbench/harness/impl/launch.ts';
import type { RecordReader } from '../stores/records.ts';
import { substitute, type Variables } from '../flows/variables.ts';
import { send, type Attempt, type Call } from './client.ts';
import type { ApiRequest, ApiResilience } from './files.ts';

export interface ImplBounds {
  /** Every request made while the database stalls ends within this many ms. */
  readonly stallBoundMs: number;
  /** SIGTERM to exit 0. */
  readonly shutdownBoundMs: number;
}

export interface ScenarioContext {
  readonly running: RunningImplementation;
  readonly database: LocalDatabaseServer;
  readonly api: ApiResilience;
  readonly variables: Variables;
  readonly records: RecordReader | undefined;
  readonly bounds: ImplBounds;
  /** ms since the scenario started. */
  readonly clock: () => number;
  /** A number unique per write sequence in the whole run. */
  nextN(): number;
}

export interface ScenarioResult {
  readonly passed: boolean;
  readonly failures: readonly string[];
  /** The figures the verdict records (status counts, times in ms, writes acknowledged and found). */
  readonly figures: Readonly<Record<string, unknown>>;
}

/** Slack over a bound for the client's own timing (the request's trip, the event loop). */
export const SLACK_MS = 1_000;

export function toCall(request: ApiRequest, variables: Variables): Call {
  const r = substitute(request, variables) as ApiRequest;
  return {
    method: r.method,
    path: r.path,
    ...(r.json !== undefined ? { json: r.json } : {}),
    ...(r.auth !== undefined ? { headers: { authorization: `Bearer ${r.auth}` } } : {}),
  };
}

export function sendCall(ctx: ScenarioContext, call: Call, timeoutMs: number): Promise<Attempt> {
  return send(ctx.running.baseUrl, call, timeoutMs, ctx.clock);
}

/** The probe's answer now: the reference later answers must equal. */
export async function probeReference(ctx: ScenarioContext): Promise<Attempt> {
  const ref = await sendCall(ctx, toCall(ctx.api.probe, ctx.variables), 10_000);
  if (ref.status < 200 || ref.status > 299)
    throw new Error(`the probe ${ctx.api.probe.method} ${ctx.api.probe.path} answered ${ref.status || ref.error} before any fault`);
  return ref;
}

export const sameAnswer = (a: Attempt, ref: Attempt): boolean => a.status === ref.status && a.body === ref.body;

/** Sends `call` at `rate` per second for `seconds` (open model: on time whatever the answers), running `at` hooks on the way. */
export async function openLoad(
  ctx: ScenarioContext,
  call: Call,
  rate: number,
  seconds: number,
  timeoutMs: number,
  hooks: readonly { readonly atSecond: number; readonly run: () => void }[] = [],
): Promise<Attempt[]> {
  const pending: Promise<Attempt>[] = [];
  const total = Math.round(rate * seconds);
  const start = ctx.clock();
  const queue = [...hooks].sort((a, b) => a.atSecond - b.atSecond);
  for (let i = 0; i < total; i++) {
    const due = start + (i * 1000) / rate;
    const wait = due - ctx.clock();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    while (queue.length > 0 && queue[0]!.atSecond * 1000 <= ctx.clock() - start) queue.shift()!.run();
    pending.push(sendCall(ctx, call, timeoutMs));
  }
  for (const h of queue) {
    const wait = start + h.atSecond * 1000 - ctx.clock();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    h.run();
  }
  return Promise.all(pending);
}

export function countBy(attempts: readonly Attempt[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const a of attempts) {
    const key = a.status === 0 ? (a.error ?? 'no answer') : String(a.status);
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}
