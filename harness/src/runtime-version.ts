// The version of the runtime an implementation runs on, as that runtime reports it: the
// binary its start command finds (a variant's PATH directories first, e.g. make setup's JDK 21).
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { Implementation, RuntimeName } from './impl/manifest.ts';
import { variantPath } from './impl/variants.ts';

const run = promisify(execFile);

export const VERSION_COMMAND: Record<RuntimeName, readonly [string, ...string[]]> = {
  node: ['node', '--version'],
  bun: ['bun', '--version'],
  java: ['java', '-version'], // prints to stderr
  dotnet: ['dotnet', '--version'],
};

export async function runtimeVersion(impl: Pick<Implementation, 'manifest' | 'variant'>): Promise<string> {
  const [command, ...args] = VERSION_COMMAND[impl.manifest.runtime.name];
  const { stdout, stderr } = await run(command, args, { env: { ...process.env, PATH: variantPath(impl.variant) } });
  return (stdout.trim() || stderr.trim()).split('\n')[0] ?? 'unknown';
}
