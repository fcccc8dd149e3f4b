// A TestRun's results once collected from the cluster: one directory per runner
// (<TestRun>-<i>/summary.json and samples.csv, k6-operator.ts), merged by the same code as
// the local runner's k6 instances (k6-merge.ts: counters summed, every percentile from all
// runners' raw samples), into the numbers a result repetition holds.
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { measuredFromK6, type K6Summary, type Measured } from '../load/k6.ts';
import { mergeK6Summaries } from '../load/k6-merge.ts';
import { SAMPLES_FILE, SUMMARY_FILE } from './operator.ts';

export interface MergedRunners {
  readonly runners: readonly { readonly runner: string; readonly requests: number }[];
  readonly measured: Measured;
}

/** Merges every runner directory under `caseDir` (each holding summary.json and samples.csv). */
export async function mergeRunnerResults(caseDir: string): Promise<MergedRunners> {
  const runners: { runner: string; summary: K6Summary; samplesFile: string }[] = [];
  for (const name of (await readdir(caseDir)).sort()) {
    const dir = join(caseDir, name);
    if (!(await stat(dir)).isDirectory()) continue;
    const summaryFile = join(dir, SUMMARY_FILE);
    const samplesFile = join(dir, SAMPLES_FILE);
    let summary: K6Summary;
    try {
      summary = JSON.parse(await readFile(summaryFile, 'utf8')) as K6Summary;
      await stat(samplesFile);
    } catch (error) {
      throw new Error(
        `${dir}: not a runner's results (${SUMMARY_FILE} and ${SAMPLES_FILE}): ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`,
        { cause: error },
      );
    }
    runners.push({ runner: name, summary, samplesFile });
  }
  if (runners.length === 0) throw new Error(`${caseDir}: no runner directories`);
  const measured = measuredFromK6(await mergeK6Summaries(runners.map(({ summary, samplesFile }) => ({ summary, samplesFile }))));
  return { runners: runners.map((r) => ({ runner: r.runner, requests: measuredFromK6(r.summary).requests })), measured };
}
