// make test's lanes are processes of their own, and each built the implementations it launched:
// express's `npm ci` ran in its fuzzing, resilience, unit-test and benchmark-smoke lanes alike,
// aspnet's publish and spring's Maven package four times over the same sources. Within one make
// test run (its folder, tally.ts) a folder's build is recorded with the build command and the hash
// of the folder's sources; a later lane that would run the same build on the same sources skips
// it. A folder's outputs are those of its last build: another build command there (a variant's)
// replaces the record. Outside make test, and for copies outside impl/ (planted defects), every
// process builds as before.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { implTreeHash } from '../fingerprint.ts';
import { repoRoot } from '../paths.ts';
import { testRunDir } from '../tally.ts';

export interface RunBuild {
  /** The folder's last build in this run was this build of these sources. */
  readonly done: boolean;
  /** Records the build as the folder's last, after it succeeded. */
  record(): Promise<void>;
}

/** The record of a local build of `dir` in this make test run; undefined where builds are not shared. */
export async function runBuild(dir: string, command: string, env: NodeJS.ProcessEnv = process.env): Promise<RunBuild | undefined> {
  const run = testRunDir(env);
  const folder = path.relative(path.join(repoRoot, 'impl'), dir);
  if (run === undefined || folder === '' || folder.startsWith('..') || path.isAbsolute(folder)) return undefined;
  const file = path.join(run, 'builds', `${folder.replaceAll(path.sep, '_')}.txt`);
  const record = `${command}\n${await implTreeHash(dir)}\n`;
  const last = await readFile(file, 'utf8').catch(() => null);
  return {
    done: last === record,
    record: async () => {
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(file, record);
    },
  };
}
