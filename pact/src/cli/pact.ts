// make pact [IMPL=a,b] [API=x,y]  →  node pact/src/cli/pact.ts --impl a,b --api x,y
// Exits 1 when a consumer test fails or a verification fails or errors; skips are loud, not failures.
// make test's pool splits it: --consumers-only writes the pacts in one lane, then each
// implementation's lane verifies with --reuse-pacts (the pacts of the current contract).
import { runMain } from '@fairbench/harness/cli/main.ts';
import { checkPairs, listArg, parseCli } from '@fairbench/harness/cli/usage.ts';
import { tally } from '@fairbench/harness/tally.ts';

process.env.PACT_DO_NOT_TRACK ??= 'true';

await runMain('pact', async () => {
  const { values } = parseCli({
    options: {
      impl: { type: 'string' },
      api: { type: 'string' },
      'consumers-only': { type: 'boolean', default: false },
      'reuse-pacts': { type: 'boolean', default: false },
    },
  });
  const impls = listArg(values.impl);
  const apis = listArg(values.api);
  await checkPairs(impls, apis);
  // Pact and the suite load only once the options are right: a usage error is answered at once.
  const { bold, red, yellow } = await import('@fairbench/conformance/report/console.ts');
  const { writeCurrentMatrix } = await import('@fairbench/conformance/report/matrix.ts');
  const { runPact } = await import('../run.ts');
  const mode = values['consumers-only'] === true ? 'only' : values['reuse-pacts'] === true ? 'reuse' : 'run';
  const { consumers, verdicts } = await runPact({ ...(impls ? { impls } : {}), ...(apis ? { apis } : {}) }, mode);
  if (mode === 'only') {
    const failed = consumers.filter((c) => !c.passed);
    for (const c of failed) console.log(red(`consumer ${c.api}: the pact and bench/k6.js disagree`));
    console.log(`pact: ${consumers.length - failed.length}/${consumers.length} consumer tests passed (no verification asked for)`);
    tally('pact-consumers', { consumers: consumers.length, failed: failed.length });
    return failed.length === 0;
  }
  const { markdown, text } = await writeCurrentMatrix();
  console.log(`\n${bold('Compliance matrix')} (${markdown})\n\n${text}`);
  for (const v of verdicts.filter((v) => v.status === 'skipped')) console.log(yellow(`!! ${v.implementation} × ${v.api} was NOT verified: ${v.reason}`));
  const broken = verdicts.filter((v) => v.status === 'failed' || v.status === 'error');
  for (const v of broken)
    console.log(red(`${v.implementation} × ${v.api}: pact ${v.status}${v.reason ? ` (${v.reason.split('\n')[0]})` : `: ${v.failing.join('; ')}`}`));
  const failedConsumers = consumers.filter((c) => !c.passed);
  for (const c of failedConsumers) console.log(red(`consumer ${c.api}: the pact and bench/k6.js disagree`));
  const ran = verdicts.filter((v) => v.status !== 'skipped');
  console.log(
    `pact: ${consumers.length - failedConsumers.length}/${consumers.length} consumer tests passed; ${ran.length - broken.length} verifications passed, ${broken.length} failed, ${verdicts.length - ran.length} skipped`,
  );
  tally('pact', { verifications: ran.length, failed: broken.length, skipped: verdicts.length - ran.length });
  return failedConsumers.length === 0 && broken.length === 0 && ran.length > 0;
});
