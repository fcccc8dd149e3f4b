// make pact [IMPL=a,b] [API=x,y]  →  node pact/src/cli/pact.ts --impl a,b --api x,y
// Exits 1 when a consumer test fails or a verification fails or errors; skips are loud, not failures.
import { parseArgs } from 'node:util';
import { runMain } from '@fairbench/harness/cli/main.ts';
import { bold, red, yellow } from '@fairbench/conformance/report/console.ts';
import { writeCurrentMatrix } from '@fairbench/conformance/report/matrix.ts';
import { runPact } from '../run.ts';

process.env.PACT_DO_NOT_TRACK ??= 'true';
const { values } = parseArgs({ options: { impl: { type: 'string' }, api: { type: 'string' } } });
const list = (v: string | undefined) => (v === undefined || v === '' ? undefined : v.split(',').map((s) => s.trim()));

await runMain('pact', async () => {
  const impls = list(values.impl);
  const apis = list(values.api);
  const { consumers, verdicts } = await runPact({ ...(impls ? { impls } : {}), ...(apis ? { apis } : {}) });
  const { markdown, text } = await writeCurrentMatrix();
  console.log(`\n${bold('Compliance matrix')} (${markdown})\n\n${text}`);
  for (const v of verdicts.filter((v) => v.status === 'skipped')) console.log(yellow(`!! ${v.implementation} × ${v.api} was NOT verified: ${v.reason}`));
  const broken = verdicts.filter((v) => v.status === 'failed' || v.status === 'error');
  for (const v of broken) console.log(red(`${v.implementation} × ${v.api}: pact ${v.status}${v.reason ? ` (${v.reason.split('\n')[0]})` : `: ${v.failing.join('; ')}`}`));
  const failedConsumers = consumers.filter((c) => !c.passed);
  for (const c of failedConsumers) console.log(red(`consumer ${c.api}: the pact and bench/k6.js disagree`));
  const ran = verdicts.filter((v) => v.status !== 'skipped');
  console.log(`pact: ${consumers.length - failedConsumers.length}/${consumers.length} consumer tests passed; ${ran.length - broken.length} verifications passed, ${broken.length} failed, ${verdicts.length - ran.length} skipped`);
  return failedConsumers.length === 0 && broken.length === 0 && ran.length > 0;
});
