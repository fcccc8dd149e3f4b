// pgbench's per-transaction log (-l) → the baseline kit's output. A line is
//   client_id transaction_no time script_no time_epoch time_us [schedule_lag] [retries]
// with `time` the transaction's latency in µs, or "failed" / "skipped" (pgbench 15).
// A native-tier client's script may stand for several of the API's requests (a user group's
// whole flow): `requestsPerScript` says how many, and each transaction then counts as that
// many requests of latency time / requests each.
import type { BaselineOutput, LatencyUs } from './recorder.ts';

export interface PgbenchTransaction {
  readonly client: number;
  /** µs, or null when pgbench logged it failed or skipped. */
  readonly latencyUs: number | null;
  readonly script: number;
  /** When it ended, ms since the epoch. */
  readonly endMs: number;
}

export function parsePgbenchLog(text: string): PgbenchTransaction[] {
  const out: PgbenchTransaction[] = [];
  for (const line of text.split('\n')) {
    const f = line.trim().split(/\s+/);
    if (f.length < 6) continue;
    const [client, , time, script, epoch, micros] = f;
    out.push({
      client: Number(client),
      latencyUs: /^\d+$/.test(time!) ? Number(time) : null,
      script: Number(script),
      endMs: Number(epoch) * 1000 + Number(micros) / 1000,
    });
  }
  return out;
}

function quantile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))]!;
}

/** Latency summary (µs) of values each weighted by a whole count. */
export function weightedLatency(values: readonly (readonly [number, number])[]): LatencyUs {
  const sorted = values.flatMap(([v, n]) => Array<number>(n).fill(v)).sort((a, b) => a - b);
  const r = (x: number) => Math.round(x * 1000) / 1000;
  return {
    min: r(sorted[0] ?? 0),
    mean: r(sorted.length ? sorted.reduce((a, b) => a + b, 0) / sorted.length : 0),
    median: r(quantile(sorted, 0.5)),
    p90: r(quantile(sorted, 0.9)),
    p95: r(quantile(sorted, 0.95)),
    p99: r(quantile(sorted, 0.99)),
    max: r(sorted.at(-1) ?? 0),
  };
}

/**
 * The kit's output from the transactions that started inside [measureFrom, measureUntil)
 * (start = end − latency, as k6 counts a request by its start): requests are
 * requestsPerScript[script] per transaction, failed ones counted as errors.
 */
export function pgbenchOutput(
  txs: readonly PgbenchTransaction[],
  requestsPerScript: readonly number[],
  measureFrom: number,
  measureUntil: number,
): BaselineOutput {
  let requests = 0;
  let failed = 0;
  const latencies: [number, number][] = [];
  for (const t of txs) {
    const n = requestsPerScript[t.script] ?? 1;
    const start = t.endMs - (t.latencyUs ?? 0) / 1000;
    if (start < measureFrom || start >= measureUntil) continue;
    requests += n;
    if (t.latencyUs === null) failed += n;
    else latencies.push([t.latencyUs / n, n]);
  }
  return { measureFrom, measureUntil, requests, errors: failed ? { '0': failed } : {}, latencyUs: weightedLatency(latencies) };
}
