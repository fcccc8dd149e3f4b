// Where the papers page and its inputs live: the compact results docs/papers/<api>.json
// (checked against bench/schemas/paper-result.schema.json when read), the page
// docs/papers.md, and the README's generated line counting the verdicts.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { repoRoot } from '@fairbench/harness/paths.ts';
import { newAjv } from '@fairbench/harness/json-schema.ts';
import { replaceBlock } from '@fairbench/harness/readme-block.ts';
import schema from '../../../schemas/paper-result.schema.json' with { type: 'json' };
import { schemaErrors } from '../../yaml.ts';
import type { PaperClaims } from './claims.ts';
import type { CompactResult } from './compact.ts';
import { renderPapersPage, summaryLine, type PaperEntry } from './page.ts';

const validate = newAjv().compile<CompactResult>(schema);

export const papersDir = join(repoRoot, 'docs', 'papers');
export const papersPage = join(repoRoot, 'docs', 'papers.md');
export const compactFile = (api: string, dir = papersDir): string => join(dir, `${api}.json`);

/** The API's committed compact result, or null when there is none yet. */
export async function readCompact(api: string, dir = papersDir): Promise<CompactResult | null> {
  const file = compactFile(api, dir);
  let data: unknown;
  try {
    data = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  if (!validate(data)) throw new Error(`${file}: ${schemaErrors(validate.errors)} (format: bench/schemas/paper-result.schema.json)`);
  if (data.api !== api) throw new Error(`${file}: its api is ${data.api}`);
  return data;
}

export async function writeCompact(compact: CompactResult, dir = papersDir): Promise<string> {
  await mkdir(dir, { recursive: true });
  const file = compactFile(compact.api, dir);
  await writeFile(file, `${JSON.stringify(compact, null, 2)}\n`);
  return file;
}

/** Every paper with its compact result (or none). */
export async function paperEntries(papers: readonly PaperClaims[], dir = papersDir): Promise<PaperEntry[]> {
  return Promise.all(papers.map(async (paper) => ({ paper, compact: await readCompact(paper.api, dir) })));
}

/** Writes docs/papers.md and the README's `papers` block; returns the summary line. */
export async function writePapersPage(entries: readonly PaperEntry[]): Promise<string> {
  await writeFile(papersPage, renderPapersPage(entries));
  const line = summaryLine(entries);
  const readme = join(repoRoot, 'README.md');
  await writeFile(readme, replaceBlock(await readFile(readme, 'utf8'), 'papers', `[The papers' claims, checked here](docs/papers.md): ${line}`));
  return line;
}
