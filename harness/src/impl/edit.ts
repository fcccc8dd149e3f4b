// An implementation's folder copied to be changed: a planted defect (conformance's and the
// pact's mutants), a planted cheat (planted.ts) or a pinned framework package (packages.ts).
// The copy leaves out the installed packages; where an edit leaves the package manifest and
// lock file as they were, it links the original's instead of installing them again. An edit
// is exact text, found exactly once, so that one that no longer matches its file fails loudly
// instead of planting nothing.
import { cp, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Implementation } from './manifest.ts';

export interface Edit {
  readonly id: string;
  readonly file: string;
  readonly replace: string;
  readonly with: string;
}

/** impl.dir copied into `dir`, its installed packages (impl.yaml `installs`) left out. */
export async function copyImplFolder(impl: Implementation, dir: string): Promise<void> {
  const installs = impl.manifest.installs;
  await cp(impl.dir, dir, { recursive: true, filter: (src) => installs === undefined || !(src.endsWith(`/${installs}`) || src.includes(`/${installs}/`)) });
}

/**
 * Where the build only installs the lock file's packages (`installs`) and the edited file is
 * below the folder's top level (not the package manifest or lock file), links the original's
 * installed folder into the copy: true when it did, and the copy then needs no build.
 */
export async function linkInstalls(impl: Implementation, dir: string, editedFile: string): Promise<boolean> {
  const installs = impl.manifest.installs;
  if (installs === undefined || !editedFile.includes('/')) return false;
  const installed = join(impl.dir, installs);
  if (!(await stat(installed).then((s) => s.isDirectory(), () => false))) return false;
  await symlink(installed, join(dir, installs), 'dir').catch((e: NodeJS.ErrnoException) => (e.code === 'EEXIST' ? undefined : Promise.reject(e)));
  return true;
}

/** Makes the edit in `dir`; it must match exactly once. Resolves with the file's text before it. */
export async function applyEdit(dir: string, edit: Edit): Promise<string> {
  const file = join(dir, edit.file);
  const source = await readFile(file, 'utf8');
  const count = source.split(edit.replace).length - 1;
  if (count !== 1) throw new Error(`${edit.id}: the text to replace occurs ${count} times in ${edit.file} (must be once)`);
  await writeFile(
    file,
    source.replace(edit.replace, () => edit.with),
  );
  return source;
}
