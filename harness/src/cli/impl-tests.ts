// make unit → builds each implementation whose toolchain is here and runs its own
// unit tests (manifest `test`); prints why any other is skipped. --impl a,b: only those
// (make test's pool gives each implementation its own lane).
import { loadImplementations } from '../impl/manifest.ts';
import { buildImplementation, testImplementation } from '../impl/launch.ts';
import { missingToolchain } from '../impl/toolchain.ts';
import { tally } from '../tally.ts';
import { runMain } from './main.ts';
import { checkPairs, listArg, parseCli } from './usage.ts';

await runMain('implementation tests', async () => {
  const { values } = parseCli({ options: { impl: { type: 'string' } } });
  const only = listArg(values.impl);
  await checkPairs(only, undefined);
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  for (const impl of (await loadImplementations()).filter((i) => only === undefined || only.includes(i.manifest.name))) {
    const name = impl.manifest.name;
    const reason = impl.manifest.test === undefined ? 'its manifest names no test command' : await missingToolchain(impl);
    if (reason !== null) {
      console.log(`!! SKIPPED unit tests of impl/${name}: ${reason}`);
      skipped++;
      continue;
    }
    try {
      await buildImplementation(impl);
      await testImplementation(impl);
      console.log(`ok impl/${name}: ${impl.manifest.test} (log: results/logs/${name}/test.log)`);
      passed++;
    } catch (error) {
      console.log(`FAIL impl/${name}: ${error instanceof Error ? error.message : String(error)}`);
      failed++;
    }
  }
  console.log(`implementation tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
  tally('unit', { passed, failed, skipped });
  return failed === 0;
});
