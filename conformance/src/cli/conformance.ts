// make conformance [IMPL=a,b] [API=x,y]  →  node conformance/src/cli/conformance.ts --impl a,b --api x,y
// Exits 1 when any verdict failed or errored; skips are printed loudly but do not fail.
import { parseArgs } from 'node:util';
import { runMain } from '@fairbench/harness/cli/main.ts';
import { buildMatrix, matrixMarkdown, writeMatrix } from '../report/matrix.ts';
import { bold, red, yellow } from '../report/console.ts';
import { readVerdicts } from '../report/verdict.ts';
import { resilienceCells } from '../resilience/verdict.ts';
import { runConformance } from '../run.ts';

const { values } = parseArgs({ options: { impl: { type: 'string' }, api: { type: 'string' } } });
const list = (v: string | undefined) => (v === undefined || v === '' ? undefined : v.split(',').map((s) => s.trim()));

await runMain('conformance', async () => {
  const impls = list(values.impl);
  const apis = list(values.api);
  const verdicts = await runConformance({ ...(impls ? { impls } : {}), ...(apis ? { apis } : {}) });
  const matrix = buildMatrix(await readVerdicts());
  const resilience = await resilienceCells();
  const files = await writeMatrix(matrix, resilience);
  console.log(`\n${bold('Compliance matrix')} (${files.markdown})\n\n${matrixMarkdown(matrix, resilience)}`);
  const ran = verdicts.filter((v) => v.status !== 'skipped');
  const broken = verdicts.filter((v) => v.status === 'failed' || v.status === 'error');
  for (const v of verdicts.filter((v) => v.status === 'skipped')) console.log(yellow(`!! ${v.implementation} × ${v.api} was NOT tested: ${v.reason}`));
  for (const v of broken) console.log(red(`${v.implementation} × ${v.api}: ${v.status}${v.reason ? ` (${v.reason.split('\n')[0]})` : ''}`));
  if (ran.length === 0) console.log(red('no implementation was tested'));
  // The plain closing line CI reads: cases, with a run that could not start counted as one failure.
  const passed = ran.reduce((n, v) => n + v.passed, 0);
  const failed = ran.reduce((n, v) => n + v.failed, 0) + broken.filter((v) => v.status === 'error').length;
  console.log(`conformance: ${passed} passed, ${failed} failed, ${verdicts.length - ran.length} skipped`);
  return ran.length > 0 && broken.length === 0;
});
