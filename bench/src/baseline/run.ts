// Starts the baseline client (client.ts) as its own process for one repetition of a
// database case and turns its output into the repetition's measured numbers.
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startProcess } from '@fairbench/harness/process.ts';
import { LoadFailure } from '../failure.ts';
import type { LoadSettings, Measured, StartedLoad } from '../k6.ts';
import { pinned } from '../placement.ts';
import type { Case } from '../scenario.ts';
import type { BaselineConfig, BaselineOutput } from './config.ts';

const CLIENT = fileURLToPath(new URL('./client.ts', import.meta.url));

export async function startBaseline(
  c: Case,
  mysqlUrl: string,
  poolSize: number,
  settings: LoadSettings,
  opts: { readonly cores: readonly number[] | null; readonly workDir: string },
): Promise<StartedLoad> {
  const stamp = `${process.pid}-${Date.now()}`;
  const out = join(opts.workDir, `baseline-${stamp}.out.json`);
  const configFile = join(opts.workDir, `baseline-${stamp}.json`);
  const config: BaselineConfig = {
    mysqlUrl,
    poolSize,
    sql: c.operation.sql,
    args: c.operation.args,
    rows: c.rows,
    model: c.model,
    concurrency: c.concurrency,
    ...(c.rate !== undefined ? { rate: c.rate } : {}),
    warmupSeconds: settings.warmupSeconds,
    durationSeconds: settings.durationSeconds,
    seed: settings.seed,
    ids: settings.ids,
    out,
  };
  await writeFile(configFile, JSON.stringify(config));
  const [command, args] = pinned(opts.cores, process.execPath, [CLIENT, configFile]);
  const child = startProcess({ name: `baseline ${c.id}`, command, args, env: { ...process.env, NODE_ENV: 'production' }, logFile: join(opts.workDir, 'baseline.log') });
  const limitMs = (settings.warmupSeconds + settings.durationSeconds + 60) * 1000;
  const done = (async () => {
    let stopped = false;
    const timer = setTimeout(() => {
      stopped = true;
      void child.stop();
    }, limitMs);
    const code = await child.exited.finally(() => clearTimeout(timer));
    try {
      if (stopped) throw new LoadFailure('time-limit', `the database-alone client did not finish within ${limitMs / 1000} s and was stopped`, { detail: await child.tail(10) });
      if (code !== 0) throw new LoadFailure('baseline', `the database-alone client exited with ${code ?? 'a signal'}`, { detail: await child.tail(20) });
      return measuredFromBaseline(JSON.parse(await readFile(out, 'utf8')) as BaselineOutput);
    } finally {
      await rm(out, { force: true });
      await rm(configFile, { force: true });
    }
  })();
  return { process: child, done };
}

export function measuredFromBaseline(o: BaselineOutput): Measured {
  const durationSeconds = (o.measureUntil - o.measureFrom) / 1000;
  const failed = Object.values(o.errors).reduce((a, b) => a + b, 0);
  const ms = (us: number) => Math.round(us) / 1000;
  const l = o.latencyUs;
  return {
    window: { from: o.measureFrom, to: o.measureUntil },
    durationSeconds: Math.round(durationSeconds * 1000) / 1000,
    requests: o.requests,
    errors: o.errors,
    throughput: Math.round((Math.max(0, o.requests - failed) / durationSeconds) * 1000) / 1000,
    latencyMs: { min: ms(l.min), mean: ms(l.mean), median: ms(l.median), p90: ms(l.p90), p95: ms(l.p95), p99: ms(l.p99), max: ms(l.max) },
    ...(o.droppedIterations !== undefined ? { droppedIterations: o.droppedIterations } : {}),
    notes: [],
  };
}
