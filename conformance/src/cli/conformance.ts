// make conformance [IMPL=a,b] [API=x,y]  →  node conformance/src/cli/conformance.ts --impl a,b --api x,y
// Exits 1 when any verdict failed or errored; skips are printed loudly but do not fail.
// Several implementations run in lanes, two at once on two cores (harness/src/cli/lanes.ts).
import { runMain } from '@fairbench/harness/cli/main.ts';
import { implementationLanes, reportLanes, runLanes } from '@fairbench/harness/cli/lanes.ts';
import { checkPairs, listArg, parseCli } from '@fairbench/harness/cli/usage.ts';
import { tally } from '@fairbench/harness/tally.ts';

await runMain('conformance', async () => {
  const { values } = parseCli({ options: { impl: { type: 'string' }, api: { type: 'string' } } });
  const impls = listArg(values.impl);
  const apis = listArg(values.api);
  await checkPairs(impls, apis);
  // The suite loads only once the options are right: a usage error is answered at once.
  const { writeCurrentMatrix } = await import('../report/matrix.ts');
  const { bold, red, yellow } = await import('../report/console.ts');
  const lanes = await implementationLanes(impls, values.api ? ['--api', values.api] : []);
  if (lanes) {
    const outcomes = await runLanes('conformance', process.argv[1]!, lanes);
    const files = await writeCurrentMatrix();
    console.log(`\n${bold('Compliance matrix')} (${files.markdown})\n\n${files.text}`);
    return reportLanes('conformance', outcomes);
  }
  const { runConformance } = await import('../run.ts');
  const verdicts = await runConformance({ ...(impls ? { impls } : {}), ...(apis ? { apis } : {}) });
  const files = await writeCurrentMatrix();
  console.log(`\n${bold('Compliance matrix')} (${files.markdown})\n\n${files.text}`);
  const ran = verdicts.filter((v) => v.status !== 'skipped');
  const broken = verdicts.filter((v) => v.status === 'failed' || v.status === 'error');
  for (const v of verdicts.filter((v) => v.status === 'skipped')) console.log(yellow(`!! ${v.implementation} × ${v.api} was NOT tested: ${v.reason}`));
  for (const v of broken) console.log(red(`${v.implementation} × ${v.api}: ${v.status}${v.reason ? ` (${v.reason.split('\n')[0]})` : ''}`));
  if (ran.length === 0) console.log(red('no implementation was tested'));
  // The plain closing line CI reads: cases, with a run that could not start counted as one failure.
  const passed = ran.reduce((n, v) => n + v.passed, 0);
  const failed = ran.reduce((n, v) => n + v.failed, 0) + broken.filter((v) => v.status === 'error').length;
  console.log(`conformance: ${passed} passed, ${failed} failed, ${verdicts.length - ran.length} skipped`);
  tally('conformance', { pairs: ran.length, cases: passed + failed, failed, skipped: verdicts.length - ran.length });
  return ran.length > 0 && broken.length === 0;
});
