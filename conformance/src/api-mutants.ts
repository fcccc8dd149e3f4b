// Defects planted in an API's own code — its data set generator, the random draws its
// clients share — which its own tests (apis/<api>/test/) must catch: apis/<api>/test/mutants.yaml.
// Each mutant is one textual edit applied to a scratch copy of the API folder; the listed
// test files run on the copy (node --test, TAP), and every test named in killedBy must fail.
import { execFile } from 'node:child_process';
import { cp, readFile, rm } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { parse } from 'yaml';
import type { Api } from '@fairbench/harness/api/manifest.ts';
import { repoRoot, resultsDir } from '@fairbench/harness/paths.ts';
import { newAjv } from '@fairbench/harness/json-schema.ts';
import type { MutantOutcome } from './mutants.ts';
import { applyEdit } from '@fairbench/harness/impl/edit.ts';
import apiMutantsSchema from '../schemas/api-mutants.schema.json' with { type: 'json' };

export interface ApiMutant {
  readonly id: string;
  readonly why: string;
  /** Relative to the API's folder. */
  readonly file: string;
  readonly replace: string;
  readonly with: string;
  /** Test files to run, relative to the API's folder. */
  readonly tests: readonly string[];
  /** Names of tests that must fail. */
  readonly killedBy: readonly string[];
}

const validate = newAjv().compile<{ mutants: ApiMutant[] }>(apiMutantsSchema);
const TEST_TIMEOUT_MS = 300_000;

/** The API's own mutants file, if it has one. */
export async function loadApiMutants(api: Api): Promise<{ file: string; mutants: readonly ApiMutant[] } | null> {
  const file = join(api.dir, 'test', 'mutants.yaml');
  const text = await readFile(file, 'utf8').catch(() => null);
  if (text === null) return null;
  const data: unknown = parse(text);
  if (!validate(data)) throw new Error(`${file}: ${(validate.errors ?? []).map((e) => `${e.instancePath} ${e.message ?? ''}`).join('; ')}`);
  return { file, mutants: data.mutants };
}

/** The names of the failing tests in node's TAP output ("not ok 3 - name", nested or not). */
export function failingTests(tap: string): string[] {
  return [...tap.matchAll(/^\s*not ok \d+ - (.*)$/gm)].map((m) => m[1]!.replace(/\s+#.*$/, '').trim());
}

function nodeTest(files: readonly string[]): Promise<string> {
  return new Promise((resolve) => {
    // A failing test is a non-zero exit: the TAP on stdout is the answer either way. Run from
    // inside a test, node would talk its parent's binary protocol instead: not when the variable is gone.
    const { NODE_TEST_CONTEXT: _, ...env } = process.env;
    execFile(
      process.execPath,
      ['--test', '--test-reporter=tap', ...files],
      { cwd: repoRoot, env, timeout: TEST_TIMEOUT_MS, maxBuffer: 64 << 20 },
      (_err, stdout) => resolve(stdout),
    );
  });
}

export async function runApiMutant(api: Api, file: string, mutant: ApiMutant): Promise<MutantOutcome> {
  // Inside the repository, so the copy's imports of workspace packages resolve as the original's do.
  const dir = join(resultsDir, 'mutants', `api-${api.manifest.name}-${mutant.id}`);
  await rm(dir, { recursive: true, force: true });
  await cp(api.dir, dir, { recursive: true });
  try {
    await applyEdit(dir, mutant);
    const failing = failingTests(await nodeTest(mutant.tests.map((t) => join(dir, t))));
    const missed = mutant.killedBy.filter((name) => !failing.includes(name));
    return { file: relative(repoRoot, file), mutant: mutant.id, killed: missed.length === 0, failing, missed };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
