// Revisions as an axis: IMPL=express:<revision> is impl/express as it was at a git revision
// (anything git names a commit by: main, HEAD~3, a tag, a hash), so that a contributor
// measures a change against the code before it in one run: make bench IMPL=express:main,express.
// The folder at that commit is extracted (git archive) into .cache/revisions/<commit>/, inside the
// work tree so that its build finds the repository's caches as impl/express's does, and is
// an implementation of its own named by its label, express:<commit's first 10 hex digits>:
// its own gate verdicts, result documents and report series. A label names one commit
// whatever the revision was called (main moves; the label does not).
import { execFile, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { access, mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { COPY_SOURCE_FILE } from '../fingerprint.ts';
import { cacheDir, repoRoot } from '../paths.ts';

export const REVISION_MARK = ':';
const LABEL_HEX = 10;

/** Which repository the revisions are of, and where their folders are extracted (a test's own repository). */
export interface RevisionStore {
  readonly repo: string;
  readonly into: string;
}
const THIS_REPOSITORY: RevisionStore = { repo: repoRoot, into: join(cacheDir, 'revisions') };

/** `express:main` → { base: express, revision: main }; `express@bun:HEAD~1` → { base: express@bun, revision: HEAD~1 }. */
export function splitRevision(ref: string): { base: string; revision?: string } {
  const at = ref.indexOf(REVISION_MARK);
  return at < 0 ? { base: ref } : { base: ref.slice(0, at), revision: ref.slice(at + 1) };
}

/** The label of `base` (a name or a variant's label) at `commit`. */
export function revisionLabel(base: string, commit: string): string {
  return `${base}${REVISION_MARK}${commit.slice(0, LABEL_HEX)}`;
}

/** A tree hash of the form every verdict keeps (sha256:…), made of git's own hash of the folder's tree. */
export const revisionTreeHash = (gitTree: string): string => `sha256:${createHash('sha256').update(`git-tree:${gitTree}`).digest('hex')}`;

/** A revision that names no commit, or a commit without the implementation's folder. */
export class UnknownRevisionError extends Error {}

const git = async (repo: string, ...args: string[]): Promise<string> => (await promisify(execFile)('git', args, { cwd: repo })).stdout.trim();

/** The full hash of the commit `revision` names, which must hold impl/<folder>/impl.yaml. */
export async function resolveRevision(folder: string, revision: string, store: RevisionStore = THIS_REPOSITORY): Promise<string> {
  // `--end-of-options` keeps a revision that starts with '-' from being read as an option.
  const commit = await git(store.repo, 'rev-parse', '--verify', '--quiet', '--end-of-options', `${revision}^{commit}`).catch(() => '');
  if (!/^[0-9a-f]{40,64}$/.test(commit)) throw new UnknownRevisionError(`'${revision}' names no commit of this repository (git rev-parse: IMPL=<name>:<revision> takes a branch, tag, HEAD~n or hash)`);
  const manifest = await git(store.repo, 'cat-file', '-e', `${commit}:impl/${folder}/impl.yaml`).then(
    () => true,
    () => false,
  );
  if (!manifest) throw new UnknownRevisionError(`commit ${commit.slice(0, LABEL_HEX)} (${revision}) has no impl/${folder}/impl.yaml: the implementation did not exist there`);
  return commit;
}

/**
 * The folder impl/<folder> at `commit`, extracted once into .cache/revisions/<commit>/<folder>/
 * (the folder keeps its name: a manifest names its folder).
 */
export async function revisionDir(folder: string, commit: string, store: RevisionStore = THIS_REPOSITORY): Promise<string> {
  const dir = join(store.into, commit, folder);
  if (await access(join(dir, 'impl.yaml')).then(() => true, () => false)) return dir;
  await mkdir(dirname(dir), { recursive: true });
  // Extracted beside and renamed into place: two processes loading it at once never see half a folder.
  const scratch = await mkdtemp(join(dirname(dir), `.${folder}-`));
  try {
    await extract(store.repo, commit, `impl/${folder}`, scratch);
    // What its verdicts are keyed to (git does not see .cache/): the folder's tree at that commit.
    await writeFile(join(scratch, COPY_SOURCE_FILE), `${revisionTreeHash(await git(store.repo, 'rev-parse', `${commit}:impl/${folder}`))}\n`);
    await rename(scratch, dir).catch(async (error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOTEMPTY' && error.code !== 'EEXIST') throw error; // another process was first
    });
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
  return dir;
}

/** git archive <commit> <path> | tar -x -C <into> (the path's own components stripped). */
async function extract(repo: string, commit: string, path: string, into: string): Promise<void> {
  const archive = spawn('git', ['archive', '--format=tar', commit, path], { cwd: repo, stdio: ['ignore', 'pipe', 'pipe'] });
  const tar = spawn('tar', ['-x', '-C', into, `--strip-components=${path.split('/').length}`], { stdio: ['pipe', 'ignore', 'pipe'] });
  archive.stdout.pipe(tar.stdin);
  let errors = '';
  for (const child of [archive, tar]) child.stderr.on('data', (d: Buffer) => (errors += d.toString()));
  const ended = (child: typeof archive | typeof tar) =>
    new Promise<number | null>((resolve, reject) => {
      child.on('error', reject);
      child.on('close', resolve);
    });
  const [archiveCode, tarCode] = await Promise.all([ended(archive), ended(tar)]);
  if (archiveCode !== 0 || tarCode !== 0) throw new Error(`extracting ${path} at ${commit.slice(0, LABEL_HEX)} failed (git archive ${archiveCode}, tar ${tarCode}): ${errors.trim()}`);
}
