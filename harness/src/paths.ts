// Where the harness keeps things on disk. Everything derives from the repo root,
// found from this file's location so that the current directory never matters.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot: string = fileURLToPath(new URL('../../', import.meta.url)).replace(/\/$/, '');
export const cacheDir: string = path.join(repoRoot, '.cache');
/** Runtime bookkeeping (pid records of running servers); FAIRBENCH_STATE_DIR overrides it for isolated runs. */
export const stateDir: string = process.env.FAIRBENCH_STATE_DIR ?? path.join(cacheDir, 'run');
/** Binaries built by scripts/setup.sh (ferretdb, k6, ...). */
export const binDir: string = path.join(cacheDir, 'bin');
/** Pristine initialised data dirs, copied instead of re-initialising on every start; FAIRBENCH_TEMPLATES_DIR overrides it for isolated runs. */
export const templatesDir: string = process.env.FAIRBENCH_TEMPLATES_DIR ?? path.join(cacheDir, 'templates');
/** Benchmark results and implementation logs (git-ignored). */
export const resultsDir: string = path.join(repoRoot, 'results');
