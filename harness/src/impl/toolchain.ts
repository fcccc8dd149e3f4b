// Which of an implementation's required commands are missing on this machine.
import { access, constants } from 'node:fs/promises';
import { delimiter, join } from 'node:path';
import type { ImplManifest } from './manifest.ts';

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

/** Null when every required command is present, else the reason this implementation cannot run here. */
export async function missingToolchain(manifest: ImplManifest): Promise<string | null> {
  const missing: string[] = [];
  for (const command of manifest.toolchain) if (!(await onPath(command))) missing.push(command);
  return missing.length === 0 ? null : `toolchain not found on PATH: ${missing.join(', ')}`;
}
