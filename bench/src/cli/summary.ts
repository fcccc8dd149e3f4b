// Prints one run's result as a Markdown table: the file given, or the newest under results/bench/.
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { runMain } from '@fairbench/harness/cli/main.ts';
import { resultErrors } from '../result.ts';
import type { BenchResult } from '../result-document.ts';
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
  process.stdout.write(summaryMarkdown(doc as BenchResult));
  return true;
});
