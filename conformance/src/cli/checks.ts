// make test's checks of the implementations in one pool of lanes: the planted defects, fuzzing
// (short form), conformance and resilience (short form, once per database kind), one lane per
// implementation and check (and one for the APIs' own code's defects), two at once on two cores,
// never two lanes of one implementation at once (harness/src/cli/lanes.ts). One pool rather than
// four in turn: a check's slowest implementation no longer leaves a core idle before the next.
// Each check's own command (make mutants, fuzz, conformance, resilience) runs the same lanes alone.
import { fileURLToPath } from 'node:url';
import { runMain } from '@fairbench/harness/cli/main.ts';
import { implementationLanes, laneWidth, reportLanes, runLanes, type Lane } from '@fairbench/harness/cli/lanes.ts';
import { checkPairs, listArg, parseCli } from '@fairbench/harness/cli/usage.ts';

/** Each check: its command (beside this file) and the arguments make test gives it. */
const CHECKS: readonly { name: string; script: string; args: readonly string[] }[] = [
  { name: 'mutants', script: 'mutants.ts', args: [] },
  { name: 'fuzz', script: 'fuzz.ts', args: ['--short'] },
  { name: 'conformance', script: 'conformance.ts', args: [] },
  { name: 'resilience', script: 'resilience.ts', args: ['--short', '--per-database'] },
];

await runMain('checks', async () => {
  const { values } = parseCli({ options: { impl: { type: 'string' }, api: { type: 'string' } } });
  const impls = listArg(values.impl);
  await checkPairs(impls, listArg(values.api));
  const apiArgs = values.api ? ['--api', values.api] : [];
  const script = (file: string) => fileURLToPath(new URL(file, import.meta.url));
  // Two lanes at least here, even on one core: the pool is how the four checks are run.
  const perImpl = (await implementationLanes(impls, [], Math.max(2, laneWidth()))) ?? [{ name: impls![0]!, group: impls![0]!, args: ['--impl', impls![0]!] }];
  const lanes: Lane[] = CHECKS.flatMap((check) => [
    ...perImpl.map((l) => ({ ...l, name: `${check.name}-${l.name}`, script: script(check.script), args: [...l.args, ...check.args, ...apiArgs] })),
    ...(check.name === 'mutants' && impls === undefined ? [{ name: 'mutants-apis', script: script(check.script), args: ['--own-code', ...apiArgs] }] : []),
  ]);
  const outcomes = await runLanes('checks', script('checks.ts'), lanes);
  const { writeCurrentMatrix } = await import('../report/matrix.ts');
  const { bold } = await import('../report/console.ts');
  const files = await writeCurrentMatrix();
  console.log(`\n${bold('Compliance matrix')} (${files.markdown})\n\n${files.text}`);
  return reportLanes('checks', outcomes);
});
