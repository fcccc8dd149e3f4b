// Builds the report: load and validate every result, compute, render, write.
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { renderHtml } from './html/html.ts';
import { loadResults, type LoadedRun } from './load.ts';
import { buildModel, type ApiReport } from './model.ts';
import { loadAllClaims } from './papers/claims.ts';

export interface WrittenReport {
  file: string;
  runs: number;
  apis: ApiReport[];
  warnings: string[];
}

/**
 * Reads `<resultsRoot>/bench/**.json` and writes the HTML report to `outFile`; with `keep`,
 * of the documents it keeps only (one make bench's runs), without the other files' warnings.
 */
export async function writeReport(resultsRoot: string, outFile: string, keep?: (run: LoadedRun) => boolean): Promise<WrittenReport> {
  const loaded = await loadResults(resultsRoot);
  const runs = keep ? loaded.runs.filter(keep) : loaded.runs;
  const warnings = keep ? [] : loaded.warnings;
  const apis = buildModel(runs, await loadAllClaims());
  await mkdir(dirname(outFile), { recursive: true });
  await writeFile(outFile, await renderHtml(apis, warnings));
  return { file: outFile, runs: runs.length, apis, warnings };
}
