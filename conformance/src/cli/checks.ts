// make test's checks of the implementations in one pool of lanes: each implementation's own
// unit tests, the planted defects, fuzzing (short form), conformance, resilience (short form,
// once per database kind), the verification of the k6 scripts' pacts and the defects only they
// catch, the cheats only proof of work catches, one lane per
// implementation and check (one more for the APIs' own code's defects, one that writes the
// pacts before any verification, make multi-host's test, and the benchmark smoke of each API
// that names one), two at once on two cores, never
// two lanes of one implementation at once (harness/src/cli/lanes.ts). One pool rather than
// steps in turn: a step's slowest implementation no longer leaves a core idle before the next.
// Each check's own command (make mutants, fuzz, conformance, resilience, pact) runs the same
// lanes alone.
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runMain } from '@fairbench/harness/cli/main.ts';
import { implementationLanes, laneWidth, reportLanes, runLanes, type Lane } from '@fairbench/harness/cli/lanes.ts';
import { checkPairs, listArg, parseCli } from '@fairbench/harness/cli/usage.ts';
import { loadApis, smokeImplementations } from '@fairbench/harness/api/manifest.ts';
import { loadImplementations } from '@fairbench/harness/impl/manifest.ts';
import { repoRoot } from '@fairbench/harness/paths.ts';
import { testRunDir } from '@fairbench/harness/tally.ts';

/**
 * Each check: its command (from the repository's root) and the arguments make test gives it;
 * `after`: a lane that must have ended first. In this order: each implementation's build (unit),
 * then the longest lanes (the compiled implementations' defects), so that the short ones fill the
 * pool's end, and the gates' lanes (conformance, pact) before the smoke's. `mostlyIdle`: its
 * lanes mostly wait (resilience: a stalled database, time-outs, idle clients; about a third of a
 * core each), so one of them at a time runs beside the two that compute (lanes.ts).
 */
const CHECKS: readonly { name: string; script: string; args: readonly string[]; after?: string; perApi?: false; mostlyIdle?: true }[] = [
  // First in each implementation's lanes: its build is then the folder's only one of the run
  // (impl/run-builds.ts), so the smoke's lanes, outside the implementation's group, never see its
  // folder being built. The implementations' own tests are not per API: no --api.
  { name: 'unit', script: 'harness/src/cli/impl-tests.ts', args: [], perApi: false },
  { name: 'mutants', script: 'conformance/src/cli/mutants.ts', args: [] },
  { name: 'fuzz', script: 'conformance/src/cli/fuzz.ts', args: ['--short'] },
  { name: 'conformance', script: 'conformance/src/cli/conformance.ts', args: [] },
  { name: 'pact', script: 'pact/src/cli/pact.ts', args: ['--reuse-pacts'], after: 'pact-consumers' },
  { name: 'resilience', script: 'conformance/src/cli/resilience.ts', args: ['--short', '--per-database'], mostlyIdle: true },
  // The defects only the contract catches (the suite's catch the rest above).
  { name: 'pact-mutants', script: 'pact/src/cli/mutants.ts', args: ['--short'], after: 'pact-consumers' },
  // The cheats only proof of work catches: each a gate (conformance and pact of the copy) and a QUICK benchmark.
  { name: 'cheats', script: 'bench/src/cli/cheats.ts', args: [], after: 'pact-consumers' },
];
const PACT_CONSUMERS = { name: 'pact-consumers', script: 'pact/src/cli/pact.ts', args: ['--consumers-only'] };
// make multi-host's test: it asserts what crossed the lab's links and that nothing is left, not
// speeds, so it can share the machine. It builds and runs express from impl/express (the test's
// IMPL): it holds that implementation's group.
// It waits for express's conformance and pact lanes: its benchmark's gate reuses their verdicts.
const MULTI_HOST: Lane = {
  name: 'multi-host',
  script: path.join(repoRoot, 'bench/test/hosts/multi-host.test.ts'),
  args: [],
  group: 'express',
  after: ['conformance-express', 'pact-express'],
  nodeArgs: ['--test', '--test-reporter=spec', '--test-timeout=300000', '--test-force-exit'],
};

/**
 * make bench-smoke's lanes, one per API that names a smoke selection (make test only): the QUICK
 * benchmark of its first implementation, or of each where the smoke says everyImplementation
 * (bench/src/cli/smoke.ts chooses the same way). Each waits for its implementations' unit, conformance
 * and pact lanes — their builds, and the verdicts its gate reuses — and then holds no group: it
 * only starts processes from folders built before, beside their other lanes. Its figures are taken
 * on a busy machine, as they were said to be (the smoke checks the pipeline, not speeds).
 */
async function smokeLanes(impls: readonly string[]): Promise<Lane[]> {
  const serving = new Map((await loadImplementations()).map((i) => [i.manifest.name, i.manifest.apis]));
  return (await loadApis()).flatMap(({ manifest: api }) => {
    if (api.bench.smoke === undefined) return [];
    const candidates = impls.filter((n) => serving.get(n)?.includes(api.name));
    const chosen = smokeImplementations(api, candidates);
    if (chosen.length === 0) return [];
    return [
      {
        name: `smoke-${api.name}`,
        script: path.join(repoRoot, 'bench/src/cli/smoke.ts'),
        args: ['--one-per-api', '--api', api.name],
        after: chosen.flatMap((n) => ['unit', 'conformance', 'pact'].map((check) => `${check}-${n}`)),
      },
    ];
  });
}

await runMain('checks', async () => {
  const { values } = parseCli({ options: { impl: { type: 'string' }, api: { type: 'string' } } });
  const impls = listArg(values.impl);
  await checkPairs(impls, listArg(values.api));
  const apiArgs = values.api ? ['--api', values.api] : [];
  const script = (file: string) => path.join(repoRoot, file);
  // Two lanes at least here, even on one core: the pool is how the checks are run.
  const perImpl = (await implementationLanes(impls, [], Math.max(2, laneWidth()))) ?? [{ name: impls![0]!, group: impls![0]!, args: ['--impl', impls![0]!] }];
  const argsOf = (check: (typeof CHECKS)[number]) => [...check.args, ...(check.perApi === false ? [] : apiArgs)];
  const lanesOf = (check: (typeof CHECKS)[number]): Lane[] => [
    ...perImpl.map((l) => ({
      ...l,
      name: `${check.name}-${l.name}`,
      script: script(check.script),
      args: [...l.args, ...argsOf(check)],
      ...(check.after ? { after: [check.after] } : {}),
      ...(check.mostlyIdle ? { mostlyIdle: true as const } : {}),
    })),
    ...(check.name === 'mutants' && impls === undefined ? [{ name: 'mutants-apis', script: script(check.script), args: ['--own-code', ...apiArgs] }] : []),
  ];
  // The whole run only (make test): the multi-host test and the smoke are not checks of the implementations asked for.
  const whole = impls === undefined && values.api === undefined;
  const smoke = whole ? await smokeLanes(perImpl.map((l) => l.group!)) : [];
  const lanes: Lane[] = [
    // First: it is short, and every pact lane waits for it.
    { ...PACT_CONSUMERS, script: script(PACT_CONSUMERS.script), args: [...PACT_CONSUMERS.args, ...apiArgs] },
    ...(whole ? [MULTI_HOST] : []),
    // The smoke's lanes once the pacts' are listed: the first ready lanes after their gates' lanes.
    ...CHECKS.flatMap((check) => [...lanesOf(check), ...(check.name === 'pact' ? smoke : [])]),
  ];
  const outcomes = await runLanes('checks', fileURLToPath(import.meta.url), lanes);
  // make test's summary shows each check's work in the pool (cli/test-summary.ts).
  const run = testRunDir();
  if (run !== undefined) await writeFile(path.join(run, 'lanes.json'), `${JSON.stringify(outcomes, null, 2)}\n`);
  const { writeCurrentMatrix } = await import('../report/matrix.ts');
  const { bold } = await import('../report/console.ts');
  const files = await writeCurrentMatrix();
  console.log(`\n${bold('Compliance matrix')} (${files.markdown})\n\n${files.text}`);
  return reportLanes('checks', outcomes);
});
