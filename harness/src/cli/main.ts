// The frame every harness command runs in: Ctrl-C and crashes stop what the
// command started, an error is printed (not thrown as a stack dump of the
// runner), and the exit code is the command's verdict.
import { installCrashHandlers, installSignalHandlers, runCleanup, shuttingDown } from '../cleanup.ts';

/** Runs `main` (which returns true for success, or its own exit code) and exits 0 or 1 (or that code) after cleanup. */
export async function runMain(name: string, main: () => Promise<boolean | number>): Promise<never> {
  installSignalHandlers();
  installCrashHandlers();
  let ok: boolean | number = false;
  try {
    ok = await main();
  } catch (error) {
    // After Ctrl-C, whatever failed failed because its servers were stopped: say only that.
    if (shuttingDown()) console.error(`${name}: interrupted`);
    else console.error(`${name}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  } finally {
    await runCleanup();
  }
  process.exit(typeof ok === 'number' ? ok : ok ? 0 : 1);
}
