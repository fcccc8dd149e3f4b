// Finds every result document under a results root, validates each against
// bench/results.schema.json and keeps the valid ones; an invalid or unreadable
// file is skipped with a warning that names it.
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { resultErrors } from '../record/result.ts';
import type { BenchResult } from '../record/result-document.ts';

export interface LoadedRun {
  /** Relative to the results root, for naming it in the report. */
  file: string;
  doc: BenchResult;
}

export interface Loaded {
  runs: LoadedRun[];
  warnings: string[];
}

async function jsonFiles(dir: string): Promise<string[]> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true, recursive: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  return entries
    .filter((e) => e.isFile() && e.name.endsWith('.json'))
    .map((e) => join(e.parentPath, e.name))
    .sort();
}

/** Every valid result under `<resultsRoot>/bench/`. */
export async function loadResults(resultsRoot: string): Promise<Loaded> {
  const runs: LoadedRun[] = [];
  const warnings: string[] = [];
  for (const path of await jsonFiles(join(resultsRoot, 'bench'))) {
    const file = relative(resultsRoot, path);
    let doc: unknown;
    try {
      doc = JSON.parse(await readFile(path, 'utf8'));
    } catch (error) {
      warnings.push(`skipped ${file}: not JSON (${(error as Error).message})`);
      continue;
    }
    const problem = resultErrors(doc).join('; ');
    if (problem) warnings.push(`skipped ${file}: does not match bench/results.schema.json (${problem.length > 300 ? problem.slice(0, 300) + '…' : problem})`);
    else runs.push({ file, doc: doc as BenchResult });
  }
  return { runs, warnings };
}
