// make work-table: the work per answer each implementation did in the runs under results/bench
// (bench/src/report/model/work-per-answer.ts), beside the API's work model: per served case
// and database counter, as a Markdown table. RUN=<runId>: that run; else each implementation's
// newest run on each API whose documents recorded it. API=: those APIs.
import { runMain } from '@fairbench/harness/cli/main.ts';
import { listArg, parseCli } from '@fairbench/harness/cli/usage.ts';
import { resultsDir } from '@fairbench/harness/paths.ts';
import { loadResults } from '../report/load.ts';
import { workPerAnswer, workPerAnswerMarkdown } from '../report/model/work-per-answer.ts';

await runMain('work-table', async () => {
  const { values } = parseCli({ options: { api: { type: 'string' }, run: { type: 'string' } } });
  const apis = listArg(values.api);
  const docs = (await loadResults(resultsDir)).runs.map((r) => r.doc).filter((d) => apis === undefined || apis.includes(d.api));
  const rows = workPerAnswer(docs);
  // Each implementation's newest run on each API with rows, unless one is named.
  const key = (r: (typeof rows)[number]) => `${r.api} ${r.implementation}`;
  const newest = new Map<string, string>();
  for (const r of rows) if (r.runId > (newest.get(key(r)) ?? '')) newest.set(key(r), r.runId);
  const chosen = rows.filter((r) => (values.run ? r.runId === values.run : newest.get(key(r)) === r.runId));
  if (chosen.length === 0) {
    console.log(
      `work-table: no run${values.run ? ` ${values.run}` : ''} under results/bench recorded its answers with its proof of work (documents from 2026-11-28 evening on do)`,
    );
    return false;
  }
  console.log(workPerAnswerMarkdown(chosen));
  return true;
});
