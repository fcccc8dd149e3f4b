// Where the contract tests keep their outputs (git-ignored, under results/).
import { join } from 'node:path';
import { binDir, resultsDir } from '@fairbench/harness/paths.ts';

export const pactResultsDir: string = join(resultsDir, 'pact');
/** The pact files the consumer tests write and the verification reads: <consumer>-<provider>.json. */
export const pactFilesDir: string = join(pactResultsDir, 'pacts');

export const consumerName = (api: string): string => `k6-${api}`;
export const providerName = (api: string): string => `${api}-api`;
export const pactFile = (api: string): string => join(pactFilesDir, `${consumerName(api)}-${providerName(api)}.json`);
/** The k6 binary scripts/setup.sh builds (the consumer test runs the real script). */
export const k6Binary: string = join(binDir, 'k6');
/** Verdicts: results/pact/<impl>/<api>.json, beside results/conformance/<impl>/<api>.json. */
export const pactVerdictFile = (impl: string, api: string): string => join(pactResultsDir, impl, `${api}.json`);
