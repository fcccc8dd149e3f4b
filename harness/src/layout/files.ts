// The harness workspaces' TypeScript and JavaScript, walked from disk (not from git) so that
// a file not yet committed counts too.
import { readdir } from 'node:fs/promises';
import path from 'node:path';

/** The source extensions the layout checks count and read. */
export const isSource = (name: string): boolean => /\.(ts|js|mjs|cjs)$/.test(name);

/** Each folder under `root` (itself included) with its own source files' names; node_modules and dot-folders skipped. */
export async function sourceFolders(root: string): Promise<Map<string, string[]>> {
  const folders = new Map<string, string[]>();
  const walk = async (dir: string): Promise<void> => {
    const entries = await readdir(dir, { withFileTypes: true });
    const files = entries.filter((e) => e.isFile() && isSource(e.name)).map((e) => e.name);
    if (files.length > 0) folders.set(dir, files);
    for (const e of entries) if (e.isDirectory() && e.name !== 'node_modules' && !e.name.startsWith('.')) await walk(path.join(dir, e.name));
  };
  await walk(root);
  return folders;
}
