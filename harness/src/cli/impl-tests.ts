// make unit → builds each implementation whose toolchain is here and runs its own
// unit tests (manifest `test`); prints why any other is skipped.
import { buildImplementation, testImplementation } from '../impl/launch.ts';
import { loadImplementations } from '../impl/manifest.ts';
import { missingToolchain } from '../impl/toolchain.ts';
import { runMain } from './main.ts';

await runMain('implementation tests', async () => {
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  for (const impl of await loadImplementations()) {
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
  return failed === 0;
});
