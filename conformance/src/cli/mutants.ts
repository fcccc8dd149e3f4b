// make mutants [API=x,y] → every mutant in apis/*/conformance/mutants/ (of those APIs) must be killed by the suite.
import { parseArgs } from 'node:util';
import { runMain } from '@fairbench/harness/cli/main.ts';
import { bold, green, red } from '../report/console.ts';
import { runMutants } from '../mutants.ts';

const { values } = parseArgs({ options: { api: { type: 'string' } } });

await runMain('mutants', async () => {
  const outcomes = await runMutants(values.api?.split(',').map((a) => a.trim()).filter(Boolean));
  console.log(`\n${bold('Mutation check of the suite')}`);
  for (const o of outcomes) console.log(`  ${o.killed ? green('killed  ') : red('SURVIVED')} ${o.file.replace('.yaml', '')}/${o.mutant} (${o.failing.length} failing cases)`);
  const survived = outcomes.filter((o) => !o.killed).length;
  console.log(`mutants: ${outcomes.length - survived} passed, ${survived} failed`);
  return survived === 0;
});
