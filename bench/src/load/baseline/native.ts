// What the native-tier clients share: a native tool (sysbench, pgbench, a Go client) run as a
// child of the baseline process (so the runner's /proc sampling of the baseline's tree counts
// the tool's CPU as the client's), its output kept, and the moment it said its load began.
import { spawn } from 'node:child_process';

export interface NativeRun {
  readonly output: string;
  /** Date.now() when the output first matched `started` (or when the tool was spawned, without one). */
  readonly startedAt: number;
}

export function runNative(command: string, args: readonly string[], started?: RegExp, env?: NodeJS.ProcessEnv): Promise<NativeRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], ...(env ? { env } : {}) });
    let output = '';
    let startedAt = started ? 0 : Date.now();
    const take = (d: Buffer) => {
      output += d.toString();
      if (!startedAt && started!.test(output)) startedAt = Date.now();
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`${command} exited with ${code}:\n${output.slice(-2000)}`));
      if (!startedAt) return reject(new Error(`${command} never said its load began (${started}):\n${output.slice(-2000)}`));
      resolve({ output, startedAt });
    });
  });
}
