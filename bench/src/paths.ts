// Where the benchmark keeps its inputs and outputs.
import { join } from 'node:path';
import { binDir, repoRoot, resultsDir } from '@fairbench/harness/paths.ts';

/** The k6 binary scripts/setup.sh builds (K6_VERSION). */
export const k6Binary: string = join(binDir, 'k6');
/** results/bench/<api>/<impl>/<runId>.json */
export const benchResultsDir: string = join(resultsDir, 'bench');
/** bench/: the profiles and schemas beside the runner. */
export const benchDir: string = join(repoRoot, 'bench');
