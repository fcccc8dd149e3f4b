// make mutants [API=x,y] [IMPL=a] [MUTANTS=id,…] → every mutant in apis/*/conformance/mutants/ (of those APIs) must be killed by the suite.
import { runMain } from '@fairbench/harness/cli/main.ts';
import { tally } from '@fairbench/harness/tally.ts';
import { implementationLanes, reportLanes, runLanes } from '@fairbench/harness/cli/lanes.ts';
import { checkApiNames, listArg, parseCli } from '@fairbench/harness/cli/usage.ts';
import { bold, green, red } from '../report/console.ts';
import { runMutants } from '../mutants.ts';

await runMain('mutants', async () => {
  const { values } = parseCli({
    options: { api: { type: 'string' }, impl: { type: 'string' }, mutant: { type: 'string' }, 'own-code': { type: 'boolean', default: false } },
  });
  const apis = listArg(values.api);
  if (apis) await checkApiNames(apis);
  // --impl a[,b] and --mutant id[,id]: only those defects (while working on them; make test runs all);
  // --own-code: only the defects planted in the APIs' own code.
  const impls = listArg(values.impl);
  const ids = listArg(values.mutant);
  // Every implementation's defects: one lane each, two at once, and a lane for the APIs' own code.
  const apiArgs = values.api ? ['--api', values.api] : [];
  const lanes = ids === undefined && !values['own-code'] ? await implementationLanes(impls, apiArgs) : null;
  if (lanes) {
    const own = impls === undefined ? [{ name: 'apis', args: ['--own-code', ...apiArgs] }] : [];
    return reportLanes('mutants', await runLanes('mutants', process.argv[1]!, [...lanes, ...own]));
  }
  const outcomes = await runMutants(apis, { ...(impls ? { impls } : {}), ...(ids ? { ids } : {}), ...(values['own-code'] ? { ownCodeOnly: true } : {}) });
  console.log(`\n${bold('Mutation check of the suite')}`);
  for (const o of outcomes)
    console.log(`  ${o.killed ? green('killed  ') : red('SURVIVED')} ${o.file.replace('.yaml', '')}/${o.mutant} (${o.failing.length} failing cases)`);
  const survived = outcomes.filter((o) => !o.killed).length;
  console.log(`mutants: ${outcomes.length - survived} passed, ${survived} failed`);
  tally('mutants', { killed: outcomes.length - survived, survived });
  return survived === 0;
});
