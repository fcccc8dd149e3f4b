// make pact-mutants [IMPL=a,b] [API=x,y] [CONFORMANCE=1] [SHORT=1] → every defect in apis/*/pact/mutants/ must fail
// its pair's provider verification; with --conformance the suite also runs on each, checking the
// file's claim; --short (make test) plants only the defects the suite misses (the contract's own).
import { runMain } from '@fairbench/harness/cli/main.ts';
import { checkApiNames, checkPairs, listArg, parseCli } from '@fairbench/harness/cli/usage.ts';
import { tally } from '@fairbench/harness/tally.ts';

process.env.PACT_DO_NOT_TRACK ??= 'true';

await runMain('pact-mutants', async () => {
  const { values } = parseCli({
    options: {
      conformance: { type: 'boolean', default: false },
      short: { type: 'boolean', default: false },
      api: { type: 'string' },
      impl: { type: 'string' },
    },
  });
  const apis = listArg(values.api);
  const impls = listArg(values.impl);
  await checkPairs(impls, undefined);
  if (apis) await checkApiNames(apis);
  const { bold, green, red } = await import('@fairbench/conformance/report/console.ts');
  const { runPactMutants } = await import('../mutants.ts');
  const outcomes = await runPactMutants({
    conformance: values.conformance === true,
    short: values.short === true,
    ...(apis ? { apis } : {}),
    ...(impls ? { impls } : {}),
  });
  console.log(`\n${bold('Mutation check of the contracts')}`);
  for (const o of outcomes) {
    const claim =
      o.conformance === undefined
        ? `conformance ${o.claimed} it (claimed)`
        : o.conformance === o.claimed
          ? `conformance ${o.conformance} it`
          : red(`conformance ${o.conformance} it, the file says ${o.claimed}`);
    console.log(
      `  ${o.killed ? green('killed  ') : red('SURVIVED')} ${o.file.replace('.yaml', '')}/${o.mutant} (${o.failing.length} failing interactions; ${claim})`,
    );
  }
  const survived = outcomes.filter((o) => !o.killed).length;
  const wrongClaims = outcomes.filter((o) => o.conformance !== undefined && o.conformance !== o.claimed).length;
  console.log(
    `pact mutants: ${outcomes.length - survived} killed, ${survived} survived; ${outcomes.filter((o) => o.claimed === 'misses').length} only the contract catches${wrongClaims ? `; ${wrongClaims} wrong conformance claims` : ''}`,
  );
  tally('pact-mutants', { killed: outcomes.length - survived, survived });
  return survived === 0 && wrongClaims === 0;
});
