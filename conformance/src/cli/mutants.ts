// make mutants → every mutant in apis/*/conformance/mutants/ must be killed by the suite.
import { runMain } from '@fairbench/harness/cli/main.ts';
import { parseCli } from '@fairbench/harness/cli/usage.ts';
import { bold, green, red } from '../report/console.ts';
import { runMutants } from '../mutants.ts';

await runMain('mutants', async () => {
  parseCli({ options: {} }); // it takes no options: a stray one is a usage error
  const outcomes = await runMutants();
  console.log(`\n${bold('Mutation check of the suite')}`);
  for (const o of outcomes) console.log(`  ${o.killed ? green('killed  ') : red('SURVIVED')} ${o.file.replace('.yaml', '')}/${o.mutant} (${o.failing.length} failing cases)`);
  const survived = outcomes.filter((o) => !o.killed).length;
  console.log(`mutants: ${outcomes.length - survived} passed, ${survived} failed`);
  return survived === 0;
});
