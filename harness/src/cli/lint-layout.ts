// make lint: the layout rules dependency-cruiser cannot state (docs/layout.md, Layering):
// at most MAX_FILES source files a folder, and every workspace declares the workspaces it imports.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { sourceFolders } from '../layout/files.ts';
import { MAX_FILES, oversizeFolders } from '../layout/folder-size.ts';
import { undeclared, workspaces } from '../layout/workspace-deps.ts';
import { repoRoot } from '../paths.ts';

const all = await workspaces(repoRoot);
const names = new Set(all.map((ws) => ws.name));
const problems: string[] = [];
// One line per missing declaration, not per importing file: the fix is one line of package.json.
const missing = new Map<string, string[]>();
for (const ws of all) {
  const folders = await sourceFolders(ws.dir);
  problems.push(...oversizeFolders(folders, repoRoot));
  const manifest = path.relative(repoRoot, path.join(ws.dir, 'package.json'));
  for (const [dir, files] of folders) {
    for (const name of files) {
      const file = path.join(dir, name);
      for (const { name: dep, field } of undeclared(ws, file, await readFile(file, 'utf8'), names)) {
        const key = `${manifest}: no "${dep}": "*" in ${field === 'dependencies' ? 'dependencies' : 'dependencies or devDependencies'}`;
        missing.set(key, [...(missing.get(key) ?? []), path.relative(repoRoot, file)]);
      }
    }
  }
}
for (const [key, files] of missing) problems.push(`${key} (imported by ${files.length} file(s), e.g. ${files.sort()[0] ?? ''})`);
if (problems.length > 0) {
  console.error(`layout: ${problems.length} problem(s)\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
console.log(`layout: ok (${all.length} workspaces, each folder ≤ ${MAX_FILES} source files, every workspace import declared)`);
