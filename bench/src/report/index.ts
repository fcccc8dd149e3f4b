// Builds the report: load and validate every result, compute, render, write.
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { renderHtml } from './html.ts';
import { loadResults } from './load.ts';
import { buildModel, type ApiReport } from './model.ts';

export interface WrittenReport {
  file: string;
  runs: number;
  apis: ApiReport[];
  warnings: string[];
}

/** Reads `<resultsRoot>/bench/**.json` and writes the HTML report to `outFile`. */
export async function writeReport(resultsRoot: string, outFile: string): Promise<WrittenReport> {
  const { runs, warnings } = await loadResults(resultsRoot);
  const apis = buildModel(runs);
  await mkdir(dirname(outFile), { recursive: true });
  await writeFile(outFile, await renderHtml(apis, warnings));
  return { file: outFile, runs: runs.length, apis, warnings };
}
