// Which of an implementation's required commands are missing on this machine.
import { access, constants } from 'node:fs/promises';
import { delimiter, join } from 'node:path';
import type { Implementation } from './manifest.ts';
import { variantPath } from './variants.ts';

export async function onPath(command: string, path = process.env['PATH'] ?? ''): Promise<boolean> {
  for (const dir of path.split(delimiter).filter(Boolean)) {
    try {
      await access(join(dir, command), constants.X_OK);
      return true;
    } catch {
      // not in this directory
    }
  }
  return false;
}

/** Its manifest's not-ready mark as a skip reason, or null. */
export function notReady(impl: Implementation): string | null {
  return impl.manifest.notReady === undefined ? null : `not ready (impl/${impl.variant.folder}/impl.yaml): ${impl.manifest.notReady}`;
}

/** Null when it is ready and every required command is present, else the reason this implementation cannot run here. */
export async function missingToolchain(impl: Implementation): Promise<string | null> {
  const unready = notReady(impl);
  if (unready !== null) return unready;
  const missing: string[] = [];
  const path = variantPath(impl.variant);
  for (const command of impl.manifest.toolchain) if (!(await onPath(command, path))) missing.push(command);
  if (missing.length === 0) return null;
  // A variant's runtime comes from make setup (its PATH directories): say where it was looked for.
  const where = impl.variant.path.length > 0 ? ` (nor in ${impl.variant.path.join(', ')}: run make setup)` : '';
  return `toolchain not found on PATH: ${missing.join(', ')}${where}`;
}
