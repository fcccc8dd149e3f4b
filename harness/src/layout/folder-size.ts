// At most MAX_FILES source files in one folder (docs/layout.md): a folder that grows past it
// is split by what its files are about, so each one stays readable at a glance.
import path from 'node:path';

export const MAX_FILES = 15;

/** The folders over the cap, as "<folder>: <n> files" relative to `root`. */
export function oversizeFolders(folders: ReadonlyMap<string, readonly string[]>, root: string, max = MAX_FILES): string[] {
  return [...folders]
    .filter(([, files]) => files.length > max)
    .map(([dir, files]) => `${path.relative(root, dir)}: ${files.length} files (at most ${max})`)
    .sort();
}
