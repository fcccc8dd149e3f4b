// Prints one run's result as a Markdown table: the file given, or the newest under results/bench/;
// for a run of several implementations (or an A/A run), the comparisons of all its documents.
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { runMain } from '@fairbench/harness/cli/main.ts';
import { resultErrors } from '../record/result.ts';
import type { BenchResult } from '../record/result-document.ts';
import { comparisonMarkdown } from '../report/comparison-summary.ts';
import { loadResults } from '../report/load.ts';
import { buildModel } from '../report/model.ts';
import { summaryMarkdown } from '../report/summary.ts';

const RESULTS = join(import.meta.dirname, '..', '..', '..', 'results', 'bench');

async function newest(dir: string): Promise<string | null> {
  let best: { path: string; mtime: number } | null = null;
  const entries = await readdir(dir, { withFileTypes: true, recursive: true }).catch(() => []);
  for (const e of entries) {
    if (!e.isFile() || !e.name.endsWith('.json')) continue;
    const path = join(e.parentPath, e.name);
    const { mtimeMs } = await stat(path);
    if (!best || mtimeMs > best.mtime) best = { path, mtime: mtimeMs };
  }
  return best?.path ?? null;
}

await runMain('summary', async () => {
  const file = process.argv[2] ?? (await newest(RESULTS));
  if (!file) {
    console.error(`summary: no result under ${RESULTS}; run make bench first`);
    return false;
  }
  const doc: unknown = JSON.parse(await readFile(file, 'utf8'));
  const problem = resultErrors(doc).join('; ');
  if (problem) {
    console.error(`summary: ${file} does not match bench/results.schema.json: ${problem}`);
    return false;
  }
  const run = doc as BenchResult;
  process.stdout.write(summaryMarkdown(run));
  if ((run.options.implementations?.length ?? 1) > 1) {
    // The run's other documents: same API and runId, wherever they are under results/bench.
    const { runs } = await loadResults(join(RESULTS, '..'));
    const siblings = runs.filter((r) => r.doc.api === run.api && r.doc.runId === run.runId);
    process.stdout.write(`\n${comparisonMarkdown(buildModel(siblings))}`);
  }
  return true;
});
