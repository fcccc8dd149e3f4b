// The frame every harness command runs in: Ctrl-C and crashes stop what the
// command started, an error is printed (not thrown as a stack dump of the
// runner), and the exit code is the command's verdict.
import { installCrashHandlers, installSignalHandlers, runCleanup } from '../cleanup.ts';

/** Runs `main` (which returns true for success) and exits 0 or 1 after cleanup. */
export async function runMain(name: string, main: () => Promise<boolean>): Promise<never> {
  installSignalHandlers();
  installCrashHandlers();
  let ok = false;
  try {
    ok = await main();
  } catch (error) {
    console.error(`${name}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  } finally {
    await runCleanup();
  }
  process.exit(ok ? 0 : 1);
}
