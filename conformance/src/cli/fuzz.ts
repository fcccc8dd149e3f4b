// make fuzz [IMPL=…] [API=…] [FUZZ_SEED=…] → Schemathesis against every implementation
// that can run here, on a freshly seeded database; exits 1 on any finding.
import { parseArgs } from 'node:util';
import { runMain } from '@fairbench/harness/cli/main.ts';
import { fuzzTarget } from '../fuzz.ts';
import { fuzzAuthHeader } from '../fuzz-auth.ts';
import { launchTarget } from '../launch-target.ts';
import { green, printBanner, red } from '../report/console.ts';
import { selectTargets, startDatabases } from '../run.ts';

const { values } = parseArgs({ options: { impl: { type: 'string' }, api: { type: 'string' } } });
const list = (v: string | undefined) => (v === undefined || v === '' ? undefined : v.split(',').map((s) => s.trim()));
const seed = process.env['FUZZ_SEED'] || '1';

await runMain('fuzz', async () => {
  const impls = list(values.impl);
  const apis = list(values.api);
  const { targets } = await selectTargets({ ...(impls ? { impls } : {}), ...(apis ? { apis } : {}) });
  if (targets.length === 0) throw new Error('nothing to fuzz on this machine');
  // Local unless FAIRBENCH_RUNTIME says otherwise: fuzzing tests the spec, not where it runs.
  const databases = await startDatabases(targets.flatMap((t) => t.api.manifest.databases), { default: 'local' });
  let passed = 0;
  let failed = 0;
  for (const target of targets) {
    printBanner(`fuzzing ${target.impl.manifest.name} × ${target.api.name} (Schemathesis, seed ${seed})`);
    const launched = await launchTarget(target, databases);
    try {
      const baseUrl = launched.running.baseUrl;
      const authHeader = await fuzzAuthHeader(target.api.manifest.conformance.fuzz?.auth, baseUrl, launched.prepared);
      if (authHeader !== undefined) console.log(`  authenticated as the manifest's fuzz.auth login (${authHeader.split(':')[0]} on every request)`);
      for (const o of await fuzzTarget(target, baseUrl, seed, authHeader)) {
        console.log(`  ${o.passed ? green('PASS') : red('FAIL')} ${o.run}: ${o.summary} (${o.logFile})`);
        if (o.passed) passed++;
        else failed++;
      }
    } finally {
      await launched.stop();
    }
  }
  console.log(`fuzz: ${passed} passed, ${failed} failed`);
  return failed === 0;
});
