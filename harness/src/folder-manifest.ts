// Both plug-in axes are folders with a YAML manifest (impl/<name>/impl.yaml,
// apis/<name>/api.yaml): read one, check it against its schema, and check that it
// names its own folder.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ValidateFunction } from 'ajv';
import { parse } from 'yaml';

/** The manifest `fileName` in `dir`, validated; undefined when the folder has none. */
export async function readFolderManifest<T extends { readonly name: string }>(
  dir: string,
  fileName: string,
  validate: ValidateFunction<T>,
): Promise<T | undefined> {
  const file = join(dir, fileName);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    return undefined;
  }
  const manifest: unknown = parse(text);
  if (!validate(manifest)) {
    const errors = (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`).join('; ');
    throw new Error(`${file}: invalid manifest: ${errors}`);
  }
  const folder = dir.split('/').filter(Boolean).pop();
  if (manifest.name !== folder) throw new Error(`${file}: name '${manifest.name}' must equal the folder name '${folder}'`);
  return manifest;
}
