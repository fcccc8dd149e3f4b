// The frame every harness command runs in: Ctrl-C and crashes stop what the
// command started, an error is printed (not thrown as a stack dump of the
// runner), and the exit code is the command's verdict.
import { installCrashHandlers, installSignalHandlers, runCleanup, shuttingDown } from '../cleanup.ts';
import { CannotRun, USAGE_EXIT, UsageError } from './usage.ts';

/**
 * Runs `main` (which returns true for success, or its own exit code) and exits 0 or 1 (or that
 * code) after cleanup; a UsageError is one line and exit code 2, CannotRun one line and 1, anything
 * else (a bug) keeps its stack.
 */
export async function runMain(name: string, main: () => Promise<boolean | number>): Promise<never> {
  installSignalHandlers();
  installCrashHandlers();
  let ok: boolean | number = false;
  try {
    ok = await main();
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`${name}: ${error.message.replace(/\s*\n\s*/g, ' ')}`);
      ok = USAGE_EXIT;
    } else if (error instanceof CannotRun) console.error(`${name}: ${error.message}`);
    // After Ctrl-C, whatever failed failed because its servers were stopped: say only that.
    else if (shuttingDown()) console.error(`${name}: interrupted`);
    else console.error(`${name}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  } finally {
    await runCleanup();
  }
  process.exit(typeof ok === 'number' ? ok : ok ? 0 : 1);
}
