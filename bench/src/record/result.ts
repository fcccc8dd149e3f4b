// The result document of a run (bench/results.schema.json): checked against the schema
// before it is written to results/bench/<api>/<impl>/<runId>.json.
import { mkdir, rename, writeFile } from 'node:fs/promises';
import os from 'node:os';
import { dirname, join } from 'node:path';
import { newAjv } from '@fairbench/harness/json-schema.ts';
import resultSchema from '../../results.schema.json' with { type: 'json' };
import { COPY_MARK, resultFileName } from './copies.ts';
import { benchResultsDir } from '../paths.ts';
import type { BenchResult } from './result-document.ts';

const ajv = newAjv();
const validateResult = ajv.compile<BenchResult>(resultSchema);

/** Schema errors of a document, or [] when it conforms. */
export function resultErrors(doc: unknown): string[] {
  if (validateResult(doc)) return [];
  return (validateResult.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`.trim());
}

/** results/bench/<api>/<impl>/<runId>.json (an A/A copy: <runId>-copy<k>.json, copies.ts). */
export function resultFile(doc: BenchResult, dir = benchResultsDir): string {
  return join(dir, doc.api, doc.implementation.name, resultFileName(doc));
}

/** Where a run's document for an implementation's label (express, express#2) may be: for RESUME. */
export function resultFileCandidates(api: string, label: string, runId: string, dir = benchResultsDir): string[] {
  const [name = label, copy] = label.split(COPY_MARK);
  return copy ? [join(dir, api, name, `${runId}-copy${copy}.json`)] : [join(dir, api, name, `${runId}.json`), join(dir, api, name, `${runId}-copy1.json`)];
}

/**
 * Checks the document against the schema and writes it to <dir>/<api>/<impl>/<runId>.json,
 * atomically (a temporary file renamed over it): a run killed while writing leaves the
 * previous version, never half a document.
 */
export async function writeResult(doc: BenchResult, dir = benchResultsDir): Promise<string> {
  const errors = resultErrors(doc);
  if (errors.length > 0) throw new Error(`result does not match bench/results.schema.json: ${errors.slice(0, 10).join('; ')}`);
  const file = resultFile(doc, dir);
  await mkdir(dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, `${JSON.stringify(doc, null, 1)}\n`);
  await rename(tmp, file);
  return file;
}

/** A sortable, file-name-safe id: the start time in UTC. */
export function newRunId(started: Date): string {
  return started
    .toISOString()
    .replace(/[:]/g, '-')
    .replace(/\.\d+Z$/, 'Z');
}

export function machineFacts(placement: Readonly<BenchResult['machine']['placement']>): BenchResult['machine'] {
  return {
    hostname: os.hostname(),
    cpuModel: os.cpus()[0]?.model ?? 'unknown',
    cores: os.cpus().length,
    kernel: os.release(),
    memoryBytes: os.totalmem(),
    harnessNode: process.version,
    placement: { ...placement },
  };
}
