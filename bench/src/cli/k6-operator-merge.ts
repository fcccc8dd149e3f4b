// make k6-operator-merge DIR=<a case's directory on the results claim, copied here>
// → node bench/src/cli/k6-operator-merge.ts --dir <dir>
// k6-operator does not aggregate its runners' summaries: this merges them exactly
// (k6-operator-results.ts), prints the case's figures and writes merged.json beside them.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runMain } from '@fairbench/harness/cli/main.ts';
import { parseCli, UsageError } from '@fairbench/harness/cli/usage.ts';
import { mergeRunnerResults } from '../k6-operator/results.ts';

await runMain('k6-operator-merge', async () => {
  const { values } = parseCli({ options: { dir: { type: 'string' } } });
  if (!values.dir)
    throw new UsageError(
      "give DIR: a case's directory of runner results copied from the claim (e.g. make k6-operator-merge DIR=collected/fairbench/forum/<runId>/rest/closed/c100-r1-j0)",
    );
  const { runners, measured } = await mergeRunnerResults(values.dir);
  for (const r of runners) console.log(`  ${r.runner}: ${r.requests} requests in the measured window`);
  const l = measured.latencyMs;
  console.log(
    `merged: ${measured.requests} requests in ${measured.durationSeconds} s = ${measured.throughput} req/s · errors ${JSON.stringify(measured.errors)} · latency median ${l.median} ms, p95 ${l.p95} ms, p99 ${l.p99} ms`,
  );
  const out = join(values.dir, 'merged.json');
  await writeFile(out, `${JSON.stringify({ runners, measured }, null, 2)}\n`);
  console.log(`→ ${out}`);
  return true;
});
