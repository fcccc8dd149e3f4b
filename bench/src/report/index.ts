// Builds the report: load and validate every result, compute, render, write.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { renderHtml } from './html/html.ts';
import { loadResults, type LoadedRun } from './load.ts';
import { parse } from 'yaml';
import { loadApis } from '@fairbench/harness/api/manifest.ts';
import { newAjv } from '@fairbench/conformance/json-schema.ts';
import publishedSchema from '../../schemas/published.schema.json' with { type: 'json' };
import { buildModel, type ApiReport, type PaperData } from './model.ts';
import type { Published } from './published.ts';
import { schemaErrors } from '../yaml.ts';

const validatePublished = newAjv().compile<Published>(publishedSchema);

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
  const apis = buildModel(runs, await paperData());
  await mkdir(dirname(outFile), { recursive: true });
  await writeFile(outFile, await renderHtml(apis, warnings));
  return { file: outFile, runs: runs.length, apis, warnings };
}

/**
 * The papers' published figures the report sets beside ours: the `paper` or `published` section
 * of an API's scenario file, where it has one (the API's schema checked `paper`; the format of
 * `published` is the report's own, checked here).
 */
async function paperData(): Promise<PaperData> {
  const data: PaperData = {};
  for (const api of await loadApis()) {
    const file = join(api.dir, api.manifest.bench.scenario);
    const { paper, published } = parse(await readFile(file, 'utf8')) as { paper?: PaperData[string]['paper']; published?: unknown };
    if (published !== undefined && !validatePublished(published)) {
      throw new Error(`${file}: published: ${schemaErrors(validatePublished.errors)} (format: bench/schemas/published.schema.json)`);
    }
    if (paper || published) data[api.manifest.name] = { ...(paper ? { paper } : {}), ...(published ? { published } : {}) };
  }
  return data;
}
