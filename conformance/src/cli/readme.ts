// make readme → the README's generated block, the compliance matrix, rebuilt from the verdicts
// on disk (conformance, contract, resilience: what make matrix prints) with the dates they span.
// A cell no verdict on disk renews (an implementation or API not run in this clone) keeps the
// README's previous text, and the previous dates stay in the span (report/readme-matrix.ts).
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runMain } from '@fairbench/harness/cli/main.ts';
import { repoRoot } from '@fairbench/harness/paths.ts';
import { readPactVerdicts, writeCurrentMatrix } from '../report/matrix.ts';
import { blockMarkers, replaceBlock } from '@fairbench/harness/readme-block.ts';
import { readVerdicts } from '../report/verdict.ts';
import { dateSpan, mergeMatrixTables, parseMatrixTable, statedDates, tableMarkdown } from '../report/readme-matrix.ts';

/** The text between the README's matrix markers ('' when there is none yet: replaceBlock then says so). */
function previousBlock(readme: string): string {
  const { start, end } = blockMarkers('matrix');
  const from = readme.indexOf(start);
  const to = readme.indexOf(end);
  return from < 0 || to < from ? '' : readme.slice(from + start.length, to);
}

/** An implementation (or a runtime variant of one, express@bun) whose folder is still there. */
const implExists = (name: string): boolean => existsSync(join(repoRoot, 'impl', name.split('@')[0]!, 'impl.yaml'));

await runMain('readme', async () => {
  const { text } = await writeCurrentMatrix();
  const dates = [...(await readVerdicts()), ...(await readPactVerdicts())].map((v) => v.recordedAt.slice(0, 10));
  if (dates.length === 0) throw new Error('no verdicts on disk: run make conformance (and make pact, make resilience) first');
  const file = join(repoRoot, 'README.md');
  const readme = await readFile(file, 'utf8');
  const previous = previousBlock(readme);
  const { table, kept } = mergeMatrixTables(parseMatrixTable(text), parseMatrixTable(previous), implExists);
  const span = dateSpan(kept.length > 0 ? [...dates, ...statedDates(previous)] : dates)!;
  const block = `${tableMarkdown(table).trim()}\n\n<sub>Verdicts recorded ${span} on a 2-core machine; \`make matrix\` prints the current ones, \`make readme\` copies them here.</sub>`;
  await writeFile(file, replaceBlock(readme, 'matrix', block));
  console.log(`readme: the compliance matrix in README.md (verdicts of ${span})`);
  if (kept.length > 0) console.log(`readme: no verdict on disk for some cells of ${kept.join(', ')}: their previous text kept`);
  return true;
});
