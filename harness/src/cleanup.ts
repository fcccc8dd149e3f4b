// One process-wide list of things to undo before the harness exits (servers to stop,
// dirs to remove). It runs once, newest first, whichever way the process ends:
// the CLI's normal exit (explicit runCleanup), a signal, or a crash.

interface Entry {
  readonly name: string;
  readonly fn: () => Promise<void>;
}

const entries: Entry[] = [];
let running: Promise<void> | undefined;

/** Registers `fn` to run at cleanup; the returned function unregisters it (call it once the thing is already undone). */
export function onCleanup(name: string, fn: () => Promise<void>): () => void {
  const entry: Entry = { name, fn };
  entries.push(entry);
  return () => {
    const i = entries.indexOf(entry);
    if (i >= 0) entries.splice(i, 1);
  };
}

/** True once cleanup has begun (e.g. after Ctrl-C): work still in flight should stop, not record results. */
export function shuttingDown(): boolean {
  return running !== undefined;
}

/** Runs every registered cleanup, newest first, each one even if an earlier one failed. Idempotent. */
export function runCleanup(): Promise<void> {
  running ??= drain();
  return running;
}

async function drain(): Promise<void> {
  // Pop rather than iterate a snapshot: a cleanup may register or unregister others.
  for (let entry = entries.pop(); entry; entry = entries.pop()) {
    try {
      await entry.fn();
    } catch (err) {
      process.stderr.write(`cleanup "${entry.name}" failed: ${errorText(err)}\n`);
    }
  }
}

const signalExitCodes = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 } as const;
let signalsInstalled = false;
let crashesInstalled = false;

/**
 * Makes SIGINT/SIGTERM/SIGHUP run the cleanup before exiting. Idempotent; startProcess()
 * calls it, so any process that starts a server (a CLI, a test file) stops it on Ctrl-C.
 */
export function installSignalHandlers(): void {
  if (signalsInstalled) return;
  signalsInstalled = true;
  for (const [signal, code] of Object.entries(signalExitCodes)) {
    process.on(signal, () => {
      // A second signal while cleaning up means "stop waiting": exit now. Whatever is
      // left running is killed by the next harness start (reapStale).
      if (running) process.exit(code);
      process.stderr.write(`\n${signal}: cleaning up...\n`);
      void runCleanup().finally(() => process.exit(code));
    });
  }
}

/** Makes an uncaught exception or unhandled rejection run the cleanup, then exit 1 (for CLIs; test runners report those themselves). */
export function installCrashHandlers(): void {
  if (crashesInstalled) return;
  crashesInstalled = true;
  const crash = (err: unknown): void => {
    process.stderr.write(`${errorText(err)}\n`);
    void runCleanup().finally(() => process.exit(1));
  };
  process.on('uncaughtException', crash);
  process.on('unhandledRejection', crash);
}

function errorText(err: unknown): string {
  return err instanceof Error ? (err.stack ?? err.message) : String(err);
}
