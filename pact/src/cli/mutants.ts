// make pact-mutants [API=x,y] [CONFORMANCE=1] → every defect in apis/*/pact/mutants/ must fail its pair's
// provider verification; with --conformance the suite also runs on each, checking the file's claim.
import { parseArgs } from 'node:util';
import { runMain } from '@fairbench/harness/cli/main.ts';
import { bold, green, red } from '@fairbench/conformance/report/console.ts';
import { runPactMutants } from '../mutants.ts';

process.env.PACT_DO_NOT_TRACK ??= 'true';
const { values } = parseArgs({ options: { conformance: { type: 'boolean', default: false }, api: { type: 'string' } } });

await runMain('pact-mutants', async () => {
  const outcomes = await runPactMutants({ conformance: values.conformance, ...(values.api ? { apis: values.api.split(',') } : {}) });
  console.log(`\n${bold('Mutation check of the contracts')}`);
  for (const o of outcomes) {
    const claim = o.conformance === undefined ? `conformance ${o.claimed} it (claimed)` : o.conformance === o.claimed ? `conformance ${o.conformance} it` : red(`conformance ${o.conformance} it, the file says ${o.claimed}`);
    console.log(`  ${o.killed ? green('killed  ') : red('SURVIVED')} ${o.file.replace('.yaml', '')}/${o.mutant} (${o.failing.length} failing interactions; ${claim})`);
  }
  const survived = outcomes.filter((o) => !o.killed).length;
  const wrongClaims = outcomes.filter((o) => o.conformance !== undefined && o.conformance !== o.claimed).length;
  console.log(`pact mutants: ${outcomes.length - survived} killed, ${survived} survived; ${outcomes.filter((o) => o.claimed === 'misses').length} only the contract catches${wrongClaims ? `; ${wrongClaims} wrong conformance claims` : ''}`);
  return survived === 0 && wrongClaims === 0;
});
