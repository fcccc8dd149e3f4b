// The database-alone baseline ("the limit"): the SQL an implementation runs for a case,
// straight through mysql2 with the same pool size and the same concurrency (or arrival
// rate), no HTTP and no framework. Run as its own process (pinned to the generator's
// core) by bench/src/baseline/run.ts:  node client.ts <config.json>
// Latency per query goes into an HDR histogram (microseconds, 3 significant digits).
import { readFile, writeFile } from 'node:fs/promises';
import * as hdr from 'hdr-histogram-js';
import mysql from 'mysql2/promise';
import { mulberry32 } from '../../k6/prng.js';
import type { BaselineConfig, BaselineOutput } from './config.ts';

const config = JSON.parse(await readFile(process.argv[2]!, 'utf8')) as BaselineConfig;

// The same pool options as the implementations' (impl/express/src/server.js).
const pool = mysql.createPool({ uri: config.mysqlUrl, connectionLimit: config.poolSize, dateStrings: true });

const histogram = hdr.build({ lowestDiscernibleValue: 1, highestTrackableValue: 3_600_000_000, numberOfSignificantValueDigits: 3 });
const errors: Record<string, number> = {};
let requests = 0;

const startedAt = Date.now();
const measureFrom = startedAt + config.warmupSeconds * 1000;
const endAt = measureFrom + config.durationSeconds * 1000;

/** One query with arguments drawn from `random`; counted when it started inside the window. */
async function query(random: () => number): Promise<void> {
  const args = config.args.map((kind) =>
    kind === 'rows' ? String(config.rows) : String(1 + Math.floor(random() * (kind === 'commentId' ? config.ids.comment : config.ids.user))),
  );
  const measured = Date.now() >= measureFrom;
  const t0 = performance.now();
  let failure: string | undefined;
  try {
    const [rows] = await pool.execute(config.sql, args);
    if (!Array.isArray(rows) || rows.length !== config.rows) failure = 'check';
  } catch (error) {
    failure = (error as { code?: string }).code ?? '0';
  }
  if (!measured) return;
  histogram.recordValue(Math.max(1, Math.round((performance.now() - t0) * 1000)));
  requests++;
  if (failure) errors[failure] = (errors[failure] ?? 0) + 1;
}

/** Closed model: `concurrency` workers, each looping; worker i draws from the same stream as k6's VU i. */
async function closed(): Promise<void> {
  await Promise.all(
    Array.from({ length: config.concurrency }, async (_, i) => {
      const random = mulberry32(config.seed * 100003 + i + 1);
      while (Date.now() < endAt) await query(random);
    }),
  );
}

/** Open model: `rate` arrivals per second, at most `concurrency` in flight; the rest are dropped. */
async function open(): Promise<number> {
  const random = mulberry32(config.seed * 100003 + 1);
  const interval = 1000 / (config.rate ?? 1);
  const inFlight = new Set<Promise<void>>();
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
const measureUntil = Date.now();
await pool.end();

await writeFile(
  config.out,
  JSON.stringify({
    measureFrom,
    measureUntil,
    requests,
    errors,
    latencyUs: {
      min: histogram.totalCount ? histogram.minNonZeroValue : 0,
      mean: histogram.mean,
      median: histogram.getValueAtPercentile(50),
      p90: histogram.getValueAtPercentile(90),
      p95: histogram.getValueAtPercentile(95),
      p99: histogram.getValueAtPercentile(99),
      max: histogram.maxValue,
    },
    ...(typeof dropped === 'number' ? { droppedIterations: dropped } : {}),
  } satisfies BaselineOutput),
);
