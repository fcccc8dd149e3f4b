// make fuzz [IMPL=…] [API=…] [FUZZ_SEED=…] [SHORT=1] → Schemathesis against every implementation
// that can run here, on a freshly seeded database; exits 1 on any finding. --short (make test):
// fewer examples per operation. Several implementations run in lanes, two at once on two cores.
import { runMain } from '@fairbench/harness/cli/main.ts';
import { implementationLanes, reportLanes, runLanes } from '@fairbench/harness/cli/lanes.ts';
import { checkPairs, listArg, numberArg, parseCli, UsageError } from '@fairbench/harness/cli/usage.ts';
import { tally } from '@fairbench/harness/tally.ts';

await runMain('fuzz', async () => {
  const { values } = parseCli({ options: { impl: { type: 'string' }, api: { type: 'string' }, short: { type: 'boolean', default: false } } });
  const seed = String(numberArg('FUZZ_SEED', process.env['FUZZ_SEED'], 1, 0, 2 ** 31 - 1));
  if (!Number.isInteger(Number(seed))) throw new UsageError(`FUZZ_SEED must be a whole number, got '${seed}'`);
  const impls = listArg(values.impl);
  const apis = listArg(values.api);
  await checkPairs(impls, apis);
  // Several implementations: one lane each, two at once (harness/src/cli/lanes.ts).
  const lanes = await implementationLanes(impls, [...(values.api ? ['--api', values.api] : []), ...(values.short ? ['--short'] : [])]);
  if (lanes) return reportLanes('fuzz', await runLanes('fuzz', process.argv[1]!, lanes));
  // The suite loads only once the options are right: a usage error is answered at once.
  const { fuzzTarget } = await import('../fuzz.ts');
  const { fuzzAuthHeader } = await import('../fuzz-auth.ts');
  const { byImplementation, launchTargets } = await import('../launch-target.ts');
  const { green, printBanner, red } = await import('../report/console.ts');
  const { selectTargets, startDatabases } = await import('../run.ts');
  const { targets } = await selectTargets({ ...(impls ? { impls } : {}), ...(apis ? { apis } : {}) });
  if (targets.length === 0) throw new Error('nothing to fuzz on this machine');
  // Local unless FAIRBENCH_RUNTIME says otherwise: fuzzing tests the spec, not where it runs.
  const databases = await startDatabases(
    targets.flatMap((t) => t.api.manifest.databases),
    { default: 'local' },
  );
  let passed = 0;
  let failed = 0;
  // Each implementation started once for all its APIs (launchTargets): a JVM's start paid once,
  // not once per API. A process an API's fuzzing brought down fails the APIs after it.
  for (const ofImpl of byImplementation(targets)) {
    const impl = ofImpl[0]!.impl;
    printBanner(
      `fuzzing ${impl.manifest.name} × ${ofImpl.map((t) => t.api.name).join(', ')} (Schemathesis, seed ${seed}${values.short ? ', short form' : ''})`,
    );
    const launched = await launchTargets(ofImpl, databases);
    try {
      for (const [i, target] of ofImpl.entries()) {
        const { running, prepared } = launched[i]!;
        console.log(`  ${target.api.name}:`);
        if (!running.process.alive()) {
          console.log(`  ${red('FAIL')} ${impl.manifest.name} is no longer running: ${target.api.name} not fuzzed`);
          failed++;
          continue;
        }
        const authHeader = await fuzzAuthHeader(target.api.manifest.conformance.fuzz?.auth, running.baseUrl, prepared);
        if (authHeader !== undefined) console.log(`  authenticated as the manifest's fuzz.auth login (${authHeader.split(':')[0]} on every request)`);
        for (const o of await fuzzTarget(target, running.baseUrl, seed, authHeader, values.short)) {
          console.log(`  ${o.passed ? green('PASS') : red('FAIL')} ${o.run}: ${o.summary} (${o.logFile})`);
          if (o.passed) passed++;
          else failed++;
        }
      }
    } finally {
      for (const l of launched) await l.stop();
    }
  }
  console.log(`fuzz: ${passed} passed, ${failed} failed`);
  tally('fuzz', { targets: passed + failed, failed });
  return failed === 0;
});
