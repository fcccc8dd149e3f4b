// The forum's native tier: the case's SQL through sysbench (Debian's, installed by make
// setup) and native.lua beside this file, which draws the ids as k6.js and baseline.ts do.
// sysbench's C client costs ~20 µs of CPU per query here against ~130 µs for mysql2, so
// the database, not the client, is the limit. One sysbench run covers warm-up and window
// (--report-checkpoints resets its counters at the warm-up's end). A process of its own,
// pinned by the runner like every baseline:  node native.ts <config.json> <out.json>
import { rm, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { clientArgs, runNative, parseSysbench, sysbenchOutput } from '@fairbench/bench/plugin.ts';
import type { ArgKind, Model } from './scenario.ts';

export interface ForumNativeConfig {
  readonly mysqlUrl: string;
  readonly sql: string;
  readonly args: readonly ArgKind[];
  readonly rows: number;
  readonly model: Model;
  /** Connections (sysbench threads): the case's concurrency up to the implementations' pool size. */
  readonly threads: number;
  readonly rate?: number;
  readonly warmupSeconds: number;
  readonly durationSeconds: number;
  readonly seed: number;
  readonly ids: { readonly comment: number; readonly user: number };
}

const SCRIPT = fileURLToPath(new URL('./native.lua', import.meta.url));

/** sysbench's connection options, for its --config-file (kept off the command line, which every process can read). */
export function connectionOptions(mysqlUrl: string): string {
  const url = new URL(mysqlUrl);
  return (
    [
      `mysql-host=${url.hostname}`,
      `mysql-port=${url.port || '3306'}`,
      `mysql-user=${decodeURIComponent(url.username)}`,
      `mysql-password=${decodeURIComponent(url.password)}`,
      `mysql-db=${url.pathname.slice(1)}`,
    ].join('\n') + '\n'
  );
}

/** sysbench's command line for a case (exported for the test). */
export function sysbenchArgs(c: ForumNativeConfig, connectionFile: string, script = SCRIPT): string[] {
  return [
    script,
    `--config-file=${connectionFile}`,
    `--sql=${c.sql}`,
    `--args=${c.args.join(',')}`,
    `--rows=${c.rows}`,
    `--comment-ids=${c.ids.comment}`,
    `--user-ids=${c.ids.user}`,
    `--seed=${c.seed}`,
    `--threads=${c.threads}`,
    `--time=${c.warmupSeconds + c.durationSeconds}`,
    ...(c.warmupSeconds > 0 ? [`--report-checkpoints=${c.warmupSeconds}`] : []),
    // Open model: sysbench's own arrivals at the rate; it queues what its threads cannot start (nothing is dropped).
    ...(c.model === 'open' && c.rate ? [`--rate=${c.rate}`] : []),
    '--histogram=on',
    '--rand-seed=1',
    '--db-ps-mode=auto',
    'run',
  ];
}

async function main(): Promise<void> {
  const { config, out } = await clientArgs<ForumNativeConfig>();
  const connectionFile = `${out}.sysbench.conf`;
  await writeFile(connectionFile, connectionOptions(config.mysqlUrl), { mode: 0o600 });
  const run = await runNative('sysbench', sysbenchArgs(config, connectionFile), /Threads started!/).finally(() => rm(connectionFile, { force: true }));
  const report = parseSysbench(run.output);
  if (report.checkFailures > 0)
    throw new Error(`sysbench got ${report.checkFailures} answers without the case's ${config.rows} row(s): the script's SQL is not the case's`);
  await writeFile(out, JSON.stringify(sysbenchOutput(report, run.startedAt + config.warmupSeconds * 1000)));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
