// The version of the runtime an implementation runs on, as that runtime reports it: the
// binary its start command finds (a variant's PATH directories first, e.g. make setup's JDK 21).
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { Implementation } from './impl/manifest.ts';
import { RUNTIMES, type RuntimeName } from './impl/runtimes.ts';
import { variantPath } from './impl/variants.ts';

const run = promisify(execFile);

/**
 * The version line in a version command's output. .NET lists every installed shared runtime
 * ("Microsoft.AspNetCore.App 10.0.12 [/usr/share/dotnet/shared/…]"): an ASP.NET Core app runs
 * on the newest Microsoft.AspNetCore.App (the list is in ascending order), without its path.
 */
export function versionLine(runtime: RuntimeName, output: string): string {
  const lines = output
    .trim()
    .split('\n')
    .map((line) => line.trim());
  if (runtime === 'dotnet') {
    const aspnet = lines.filter((line) => line.startsWith('Microsoft.AspNetCore.App ')).at(-1);
    if (aspnet !== undefined) return aspnet.replace(/ \[.*\]$/, '');
  }
  return lines[0] || 'unknown';
}

export async function runtimeVersion(impl: Pick<Implementation, 'manifest' | 'variant'>): Promise<string> {
  const [command, ...args] = RUNTIMES[impl.manifest.runtime.name].versionCommand;
  const { stdout, stderr } = await run(command, args, { env: { ...process.env, PATH: variantPath(impl.variant) } });
  return versionLine(impl.manifest.runtime.name, stdout.trim() || stderr.trim());
}
