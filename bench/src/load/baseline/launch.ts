// Starts an API's database-alone client (apis/<api>/bench/baseline.ts) as its own process,
// pinned to the generator's cores (on the generator's host, in a topology), for one repetition of a database case, and turns its
// output into the repetition's measured numbers (per request type where it kept them).
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { localHost } from '@fairbench/harness/hosts/host.ts';
import { startProcess } from '@fairbench/harness/process.ts';
import type { Host } from '@fairbench/harness/hosts/host.ts';
import { LoadFailure } from '../failure.ts';
import type { Measured, StartedLoad } from '../k6.ts';
import type { LatencySummary, RequestTypeResult } from '../../record/result-document.ts';
import type { BaselineOutput, LatencyUs } from './recorder.ts';

/** Where and how long a database-alone client runs: the generator's cores (or a topology's generator host), its work dir, the implementations' pool size, its time limit. */
export interface BaselineOptions {
  readonly cores: readonly number[] | null;
  /** The generator host of a topology (its cores then pin the client; `cores` is ignored); absent: here. */
  readonly host?: Host;
  readonly workDir: string;
  readonly poolSize: number;
  readonly limitSeconds: number;
}

export async function startBaselineClient(client: string, config: object, id: string, opts: BaselineOptions): Promise<StartedLoad> {
  const stamp = `${process.pid}-${Date.now()}`;
  const out = join(opts.workDir, `baseline-${stamp}.out.json`);
  const configFile = join(opts.workDir, `baseline-${stamp}.json`);
  await writeFile(configFile, JSON.stringify(config));
  const child = startProcess({
    name: `baseline ${id}`,
    command: process.execPath,
    args: [client, configFile, out],
    host: opts.host ?? localHost(opts.cores),
    env: { ...process.env, NODE_ENV: 'production' },
    ownEnv: { NODE_ENV: 'production' },
    logFile: join(opts.workDir, 'baseline.log'),
  });
  const done = (async () => {
    let stopped = false;
    const timer = setTimeout(() => {
      stopped = true;
      void child.stop();
    }, opts.limitSeconds * 1000);
    const code = await child.exited.finally(() => clearTimeout(timer));
    try {
      if (stopped)
        throw new LoadFailure('time-limit', `the database-alone client did not finish within the case's time limit of ${opts.limitSeconds} s and was stopped`, {
          detail: await child.tail(10),
        });
      if (code !== 0) throw new LoadFailure('baseline', `the database-alone client exited with ${code ?? 'a signal'}`, { detail: await child.tail(20) });
      return measuredFromBaseline(JSON.parse(await readFile(out, 'utf8')) as BaselineOutput);
    } finally {
      await rm(out, { force: true });
      await rm(configFile, { force: true });
    }
  })();
  return { process: child, done };
}

const round = (n: number) => Math.round(n * 1000) / 1000;

const ms = (l: LatencyUs): LatencySummary => {
  const r = (us: number) => Math.round(us) / 1000;
  return { min: r(l.min), mean: r(l.mean), median: r(l.median), p90: r(l.p90), p95: r(l.p95), p99: r(l.p99), max: r(l.max) };
};

export function measuredFromBaseline(o: BaselineOutput): Measured {
  const seconds = (o.measureUntil - o.measureFrom) / 1000;
  const failed = Object.values(o.errors).reduce((a, b) => a + b, 0);
  const requestTypes: Record<string, RequestTypeResult> = {};
  for (const [name, t] of Object.entries(o.requestTypes ?? {})) {
    requestTypes[name] = {
      requests: t.requests,
      errors: t.errors,
      throughput: round(Math.max(0, t.requests - t.errors) / seconds),
      latencyMs: ms(t.latencyUs),
      ...(t.partsUs ? { partsMs: Object.fromEntries(Object.entries(t.partsUs).map(([k, v]) => [k, ms(v)])) } : {}),
    };
  }
  return {
    window: { from: o.measureFrom, to: o.measureUntil },
    durationSeconds: round(seconds),
    requests: o.requests,
    errors: o.errors,
    throughput: round(Math.max(0, o.requests - failed) / seconds),
    latencyMs: ms(o.latencyUs),
    ...(Object.keys(requestTypes).length ? { requestTypes } : {}),
    ...(o.droppedIterations !== undefined ? { droppedIterations: o.droppedIterations } : {}),
    notes: [],
  };
}
