// make mutants [API=x,y] [IMPL=a] [MUTANTS=id,…] → every mutant in apis/*/conformance/mutants/ (of those APIs) must be killed by the suite.
import { runMain } from '@fairbench/harness/cli/main.ts';
import { checkApiNames, listArg, parseCli } from '@fairbench/harness/cli/usage.ts';
import { bold, green, red } from '../report/console.ts';
import { runMutants } from '../mutants.ts';

await runMain('mutants', async () => {
  const { values } = parseCli({ options: { api: { type: 'string' }, impl: { type: 'string' }, mutant: { type: 'string' } } });
  const apis = listArg(values.api);
  if (apis) await checkApiNames(apis);
  // --impl a[,b] and --mutant id[,id]: only those defects (while working on them; make test runs all).
  const impls = listArg(values.impl);
  const ids = listArg(values.mutant);
  const outcomes = await runMutants(apis, { ...(impls ? { impls } : {}), ...(ids ? { ids } : {}) });
  console.log(`\n${bold('Mutation check of the suite')}`);
  for (const o of outcomes)
    console.log(`  ${o.killed ? green('killed  ') : red('SURVIVED')} ${o.file.replace('.yaml', '')}/${o.mutant} (${o.failing.length} failing cases)`);
  const survived = outcomes.filter((o) => !o.killed).length;
  console.log(`mutants: ${outcomes.length - survived} passed, ${survived} failed`);
  return survived === 0;
});
