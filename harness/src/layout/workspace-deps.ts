// Every workspace declares the sibling workspaces it imports (docs/layout.md): runtime files
// in dependencies, tests and their fixtures in dependencies or devDependencies. npm links every
// workspace into node_modules, so an undeclared import still resolves; only this check sees it.
import { readFile } from 'node:fs/promises';
import path from 'node:path';

export interface Workspace {
  readonly dir: string;
  readonly name: string;
  readonly dependencies: ReadonlySet<string>;
  readonly devDependencies: ReadonlySet<string>;
}

interface PackageJson {
  readonly name: string;
  readonly workspaces?: readonly string[];
  readonly dependencies?: Record<string, string>;
  readonly devDependencies?: Record<string, string>;
}

const readPackage = async (dir: string): Promise<PackageJson> => JSON.parse(await readFile(path.join(dir, 'package.json'), 'utf8')) as PackageJson;

/** The root package.json's workspaces (plain folder names, as fairbench lists them). */
export async function workspaces(root: string): Promise<Workspace[]> {
  const folders = (await readPackage(root)).workspaces ?? [];
  return Promise.all(
    folders.map(async (folder) => {
      const dir = path.join(root, folder);
      const pkg = await readPackage(dir);
      return {
        dir,
        name: pkg.name,
        dependencies: new Set(Object.keys(pkg.dependencies ?? {})),
        devDependencies: new Set(Object.keys(pkg.devDependencies ?? {})),
      };
    }),
  );
}

// `from '@scope/name/…'`, `import '@scope/name/…'` and `import('@scope/name/…')`.
const specifier = /\b(?:from|import)\s*\(?\s*['"](@[a-z0-9-]+\/[a-z0-9-]+)(?:\/|['"])/g;

/** The packages named by the file's import specifiers. */
export const importedPackages = (source: string): Set<string> => new Set([...source.matchAll(specifier)].map((m) => m[1] ?? ''));

/** Where an undeclared workspace belongs: a runtime import in dependencies, a test's in either. */
export interface Undeclared {
  readonly name: string;
  readonly field: 'dependencies' | 'devDependencies';
}

/** The workspaces among `names` that `file` of `ws` imports and `ws` does not declare. */
export function undeclared(ws: Workspace, file: string, source: string, names: ReadonlySet<string>): Undeclared[] {
  const isTest = path.relative(ws.dir, file).split(path.sep).includes('test');
  const declared = (name: string) => ws.dependencies.has(name) || (isTest && ws.devDependencies.has(name));
  return [...importedPackages(source)]
    .filter((name) => names.has(name) && name !== ws.name && !declared(name))
    .map((name) => ({ name, field: isTest ? 'devDependencies' : 'dependencies' }));
}
