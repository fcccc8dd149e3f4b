// The forum's database-alone client ("the limit"): the SQL an implementation runs for a
// case, straight through mysql2 with the same pool size and the same concurrency (or
// arrival rate), no HTTP and no framework. Started by the runner as its own process,
// pinned to the generator's core:  node baseline.ts <config.json> <out.json>
import mysql from 'mysql2/promise';
import { clientArgs, Recorder } from '@fairbench/bench/plugin.ts';
import { mulberry32 } from '../../../bench/k6/prng.js';
import type { ArgKind, Model } from './scenario.ts';

export interface ForumBaselineConfig {
  readonly mysqlUrl: string;
  readonly poolSize: number;
  readonly sql: string;
  readonly args: readonly ArgKind[];
  readonly rows: number;
  readonly model: Model;
  readonly concurrency: number;
  readonly rate?: number;
  readonly warmupSeconds: number;
  readonly durationSeconds: number;
  readonly seed: number;
  readonly ids: { readonly comment: number; readonly user: number };
}

const { config, out } = await clientArgs<ForumBaselineConfig>();

// The same pool options as the implementations' (impl/express/src/server.js).
const pool = mysql.createPool({ uri: config.mysqlUrl, connectionLimit: config.poolSize, dateStrings: true });
// One operation per case: no per-type breakdown, as the k6 side of a forum case has one type.
const recorder = new Recorder(false);

const startedAt = Date.now();
const measureFrom = startedAt + config.warmupSeconds * 1000;
const endAt = measureFrom + config.durationSeconds * 1000;
const opened = setTimeout(() => (recorder.measuring = true), measureFrom - Date.now());

/** One query with arguments drawn from `random`; counted when it started inside the window. */
function query(random: () => number): Promise<boolean> {
  const args = config.args.map((kind) =>
    kind === 'rows' ? String(config.rows) : String(1 + Math.floor(random() * (kind === 'commentId' ? config.ids.comment : config.ids.user))),
  );
  return recorder.timed('query', async () => {
    const [rows] = await pool.execute(config.sql, args);
    return Array.isArray(rows) && rows.length === config.rows;
  });
}

/** Closed model: `concurrency` workers, each looping; worker i draws from the same stream as k6's VU i. */
async function closed(): Promise<undefined> {
  await Promise.all(
    Array.from({ length: config.concurrency }, async (_, i) => {
      const random = mulberry32(config.seed * 100003 + i + 1);
      while (Date.now() < endAt) await query(random);
    }),
  );
  return undefined;
}

/** Open model: `rate` arrivals per second, at most `concurrency` in flight; the rest are dropped. */
async function open(): Promise<number> {
  const random = mulberry32(config.seed * 100003 + 1);
  const interval = 1000 / (config.rate ?? 1);
  const inFlight = new Set<Promise<boolean>>();
  let dropped = 0;
  let next = performance.now();
  const end = performance.now() + (endAt - Date.now());
  while (next < end) {
    const wait = next - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    for (; next <= performance.now() && next < end; next += interval) {
      if (inFlight.size >= config.concurrency) {
        dropped++;
        continue;
      }
      const p = query(random).finally(() => inFlight.delete(p));
      inFlight.add(p);
    }
  }
  await Promise.all(inFlight);
  return dropped;
}

const dropped = config.model === 'closed' ? await closed() : await open();
clearTimeout(opened);
const measureUntil = Date.now();
await pool.end();
await recorder.write(out, { from: measureFrom, until: measureUntil }, dropped);
