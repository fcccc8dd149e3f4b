// Content hashes that tie a verdict or a result to exactly what was tested:
// the files of a folder as git sees them (tracked plus untracked-but-not-ignored,
// so uncommitted edits count), hashed by path and content.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { repoRoot } from './paths.ts';

const run = promisify(execFile);

async function filesOf(paths: readonly string[]): Promise<string[]> {
  const { stdout } = await run('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard', '--', ...paths], {
    cwd: repoRoot,
    maxBuffer: 64 * 1024 * 1024,
  });
  return [...new Set(stdout.split('\0').filter(Boolean))].sort();
}

/** sha256 over (path, sha256(content)) of every file under the given repo-relative paths (those `keep` keeps). */
export async function treeHash(paths: readonly string[], keep: (file: string) => boolean = () => true): Promise<string> {
  const hash = createHash('sha256');
  for (const file of (await filesOf(paths)).filter(keep)) {
    let content: Buffer;
    try {
      content = await readFile(join(repoRoot, file));
    } catch {
      continue; // deleted in the work tree but still in the index
    }
    hash.update(file).update('\0').update(createHash('sha256').update(content).digest('hex')).update('\n');
  }
  return `sha256:${hash.digest('hex')}`;
}

/**
 * A copy of an implementation that git does not see (a revision's or a planted cheat's, under
 * .cache/) names its source's hash in this file, written when the copy is made.
 */
export const COPY_SOURCE_FILE = '.fairbench-source';

export async function implTreeHash(implDir: string): Promise<string> {
  const recorded = await readFile(join(implDir, COPY_SOURCE_FILE), 'utf8').catch(() => undefined);
  return recorded?.trim() || treeHash([relative(repoRoot, implDir)]);
}

/** A planted defect's file, apis/<api>/<suite>/mutants/<impl>.yaml (also in a fixture's apis/): the implementation it is planted in. */
const DEFECT_FILE = /(?:^|\/)apis\/[^/]+\/[^/]+\/mutants\/([^/]+)\.yaml$/;

/**
 * A treeHash filter for a verdict of `impls` (none: a verdict of no implementation): every file
 * but the planted defects of other implementations, which the verdict does not depend on, so
 * adding an implementation's defects leaves the others' verdicts current. A runtime variant's
 * defects are its implementation's (express@bun: express.yaml).
 */
export function onlyDefectsOf(impls: readonly string[]): (file: string) => boolean {
  const names = new Set(impls.map((name) => name.split('@')[0]!));
  return (file) => {
    const defects = DEFECT_FILE.exec(file);
    return defects === null || names.has(defects[1]!);
  };
}
export const specHash = (): Promise<string> => treeHash(['spec']);

export interface SourceRevision {
  readonly commit: string | null;
  /** True when the work tree differs from the commit outside docs/. */
  readonly dirty: boolean;
}

/**
 * docs/ is prose and generated pages, which no run reads; make papers writes each paper's
 * compact result there as it goes, so counting it would mark every later paper's run dirty.
 */
const NOT_READ_BY_RUNS = ':(exclude)docs';

export async function sourceRevision(): Promise<SourceRevision> {
  try {
    const { stdout: commit } = await run('git', ['rev-parse', 'HEAD'], { cwd: repoRoot });
    const { stdout: status } = await run('git', ['status', '--porcelain', '--', '.', NOT_READ_BY_RUNS], { cwd: repoRoot });
    return { commit: commit.trim(), dirty: status.trim() !== '' };
  } catch {
    return { commit: null, dirty: true };
  }
}
