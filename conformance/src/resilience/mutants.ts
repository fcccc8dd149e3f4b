// Planted defects for make resilience: apis/<api>/resilience/mutants/<impl>.yaml, in the
// conformance mutants' format (conformance/schemas/mutants.schema.json) with scenario ids
// under killedBy. Each defect is applied to a scratch copy of the implementation and the
// scenarios it names run against it (short form): every one of them must fail.
import { readdir, rm } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { Implementation } from '@fairbench/harness/impl/manifest.ts';
import { loadMutants, mutate, type Mutant } from '../mutants.ts';
import type { Target } from '../launch-target.ts';

export interface PlantedDefect {
  readonly file: string;
  readonly mutant: Mutant;
}

/** The defects planted in this implementation for this API, or none. */
export async function defectsFor(target: Target): Promise<PlantedDefect[]> {
  const dir = join(target.api.dir, 'resilience', 'mutants');
  const file = join(dir, `${target.impl.manifest.name}.yaml`);
  const names = await readdir(dir).catch(() => [] as string[]);
  if (!names.includes(basename(file))) return [];
  const loaded = await loadMutants(file);
  if (loaded.implementation !== target.impl.manifest.name) throw new Error(`${file}: implementation '${loaded.implementation}' must match the file name`);
  return loaded.mutants.map((mutant) => ({ file, mutant }));
}

/** A mutated copy of the implementation, and its removal. */
export async function plant(impl: Implementation, mutant: Mutant): Promise<{ impl: Implementation; remove: () => Promise<void> }> {
  const copy = await mutate(impl, mutant);
  return { impl: copy, remove: () => rm(copy.dir, { recursive: true, force: true }) };
}
