// make readme → the README's generated block, the compliance matrix, rebuilt from the verdicts
// on disk (conformance, contract, resilience: what make matrix prints) with the dates they span.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runMain } from '@fairbench/harness/cli/main.ts';
import { repoRoot } from '@fairbench/harness/paths.ts';
import { readPactVerdicts, writeCurrentMatrix } from '../report/matrix.ts';
import { replaceBlock } from '@fairbench/harness/readme-block.ts';
import { readVerdicts } from '../report/verdict.ts';

await runMain('readme', async () => {
  const { text } = await writeCurrentMatrix();
  const dates = [...(await readVerdicts()), ...(await readPactVerdicts())].map((v) => v.recordedAt.slice(0, 10)).sort();
  if (dates.length === 0) throw new Error('no verdicts on disk: run make conformance (and make pact, make resilience) first');
  const span = dates[0] === dates.at(-1) ? dates[0] : `${dates[0]} to ${dates.at(-1)}`;
  const file = join(repoRoot, 'README.md');
  const block = `${text.trim()}\n\n<sub>Verdicts recorded ${span} on a 2-core machine; \`make matrix\` prints the current ones, \`make readme\` copies them here.</sub>`;
  await writeFile(file, replaceBlock(await readFile(file, 'utf8'), 'matrix', block));
  console.log(`readme: the compliance matrix in README.md (verdicts of ${span})`);
  return true;
});
