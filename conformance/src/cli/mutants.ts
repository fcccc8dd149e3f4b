// make mutants [API=x,y] [IMPL=a,b] → every mutant in apis/*/conformance/mutants/ (of those APIs, planted in those implementations) must be killed by the suite.
import { runMain } from '@fairbench/harness/cli/main.ts';
import { checkApiNames, listArg, parseCli } from '@fairbench/harness/cli/usage.ts';
import { bold, green, red } from '../report/console.ts';
import { runMutants } from '../mutants.ts';

await runMain('mutants', async () => {
  const { values } = parseCli({ options: { api: { type: 'string' }, impl: { type: 'string' } } });
  const apis = listArg(values.api);
  if (apis) await checkApiNames(apis);
  const outcomes = await runMutants(apis, listArg(values.impl));
  console.log(`\n${bold('Mutation check of the suite')}`);
  for (const o of outcomes) console.log(`  ${o.killed ? green('killed  ') : red('SURVIVED')} ${o.file.replace('.yaml', '')}/${o.mutant} (${o.failing.length} failing cases)`);
  const survived = outcomes.filter((o) => !o.killed).length;
  console.log(`mutants: ${outcomes.length - survived} passed, ${survived} failed`);
  return survived === 0;
});
