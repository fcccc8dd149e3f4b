// The version of the runtime an implementation runs on, as that runtime reports it.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { ImplManifest } from './impl/manifest.ts';

const run = promisify(execFile);

export const VERSION_COMMAND: Record<ImplManifest['runtime']['name'], readonly [string, ...string[]]> = {
  node: ['node', '--version'],
  bun: ['bun', '--version'],
  java: ['java', '-version'], // prints to stderr
  dotnet: ['dotnet', '--version'],
};

export async function runtimeVersion(name: ImplManifest['runtime']['name']): Promise<string> {
  const [command, ...args] = VERSION_COMMAND[name];
  const { stdout, stderr } = await run(command, args);
  return (stdout.trim() || stderr.trim()).split('\n')[0] ?? 'unknown';
}
