// The benchmark's options from their one table (bench/src/plan/option-table.ts): `make help`
// prints them (no flag), `make options` writes the options page's generated table (--docs).
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runMain } from '@fairbench/harness/cli/main.ts';
import { parseCli } from '@fairbench/harness/cli/usage.ts';
import { repoRoot } from '@fairbench/harness/paths.ts';
import { replaceBlock } from '@fairbench/harness/readme-block.ts';
import { helpLines, OPTIONS_PAGE, optionsMarkdown } from '../plan/option-docs.ts';

await runMain('options', async () => {
  const { values } = parseCli({ options: { docs: { type: 'boolean' } } });
  if (!values.docs) {
    console.log('  The options of make bench and make k6-operator (as Make variables, or --flags to node bench/src/cli/<command>.ts):');
    for (const line of helpLines()) console.log(line);
    return true;
  }
  const file = join(repoRoot, OPTIONS_PAGE);
  await writeFile(file, replaceBlock(await readFile(file, 'utf8'), 'options', await optionsMarkdown()));
  console.log(`options: ${OPTIONS_PAGE}'s table written from bench/src/plan/option-table.ts`);
  return true;
});
