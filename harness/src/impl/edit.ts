// One textual edit of an implementation's copy: a planted defect (conformance's and the pact's
// mutants) or a planted cheat (planted.ts). Exact text, found exactly once, so that an edit
// that no longer matches its file fails loudly instead of planting nothing.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export interface Edit {
  readonly id: string;
  readonly file: string;
  readonly replace: string;
  readonly with: string;
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
