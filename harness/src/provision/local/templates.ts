// Pristine, freshly initialised data dirs cached under .cache/templates/ and copied for
// each new server: copying takes ~0.1 s where mariadb-install-db or initdb take ~0.6 s,
// and every `make test` starts fresh servers.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { onCleanup } from '../../cleanup.ts';
import { templatesDir } from '../../paths.ts';
import { runCommand } from '../../process.ts';
import { makeWorkDir, removeWorkDir, type ServerUser } from './support.ts';

export interface TemplateRecipe {
  /** e.g. 'mariadb', 'postgres' */
  name: string;
  /** The server's --version output: a new server version gets a new template. */
  serverVersion: string;
  /** The OS user the files belong to. */
  owner: ServerUser | undefined;
  /** Every flag that shapes the data dir: changing one gets a new template. */
  initArgs: readonly string[];
  /** Initialises `dataDir` (which does not exist yet) inside `workDir`, a private dir owned by `owner`. */
  init(dataDir: string, workDir: string): Promise<void>;
}

/** Creates `dataDir` as a copy of the recipe's template, building the template first if needed. */
export async function copyFromTemplate(recipe: TemplateRecipe, dataDir: string): Promise<void> {
  const template = await ensureTemplate(recipe);
  await runCommand('cp', ['-a', template, dataDir]); // -a keeps the server user's ownership
}

async function ensureTemplate(recipe: TemplateRecipe): Promise<string> {
  const template = path.join(templatesDir, templateKey(recipe));
  if (fs.existsSync(template)) return template;

  // Built in a temp dir (whose parents the server user can traverse, unlike maybe the
  // repo's), then moved in with a rename so that readers never see a half-built one.
  const workDir = await makeWorkDir(`${recipe.name}-template`, recipe.owner);
  await fs.promises.mkdir(templatesDir, { recursive: true });
  const staging = await fs.promises.mkdtemp(`${template}.building-`);
  const removeScratch = async (): Promise<void> => {
    await Promise.all([removeWorkDir(workDir), removeWorkDir(staging)]);
  };
  const unregister = onCleanup(`${recipe.name} template build`, removeScratch);
  try {
    const built = path.join(workDir, 'data');
    await recipe.init(built, workDir);
    const staged = path.join(staging, 'data');
    await runCommand('cp', ['-a', built, staged]);
    await fs.promises.rename(staged, template).catch((err: NodeJS.ErrnoException) => {
      if (!fs.existsSync(template)) throw err; // else another harness built it at the same moment: fine
    });
  } finally {
    unregister();
    await removeScratch();
  }
  return template;
}

function templateKey(recipe: TemplateRecipe): string {
  const version = /\d+\.\d+(\.\d+)?/.exec(recipe.serverVersion)?.[0] ?? 'unknown';
  const fingerprint = createHash('sha256')
    .update(JSON.stringify([recipe.serverVersion, recipe.initArgs]))
    .digest('hex')
    .slice(0, 12);
  const owner = recipe.owner?.user ?? `uid${process.getuid?.() ?? ''}`;
  return `${recipe.name}-${version}-${owner}-${fingerprint}`;
}
