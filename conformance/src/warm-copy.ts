// One built copy of a compiled implementation that each planted defect is built from (impl.yaml
// `defects`): built once, then per defect the edit is made, only what it changed is compiled
// (the compiler's servers stay up between defects) and the build started as it is, without
// packaging; the edit is undone before the next defect. A full build and package per defect was
// most of make mutants' time for aspnet and spring (docs/testing.md).
import { cp, readFile, rm, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { applyEdit, type Edit } from '@fairbench/harness/impl/edit.ts';
import { runStep } from '@fairbench/harness/impl/launch.ts';
import type { Implementation } from '@fairbench/harness/impl/manifest.ts';
import { resultsDir } from '@fairbench/harness/paths.ts';

export interface WarmCopy {
  /**
   * The implementation with the defect planted and built, to launch as it is (no build left).
   * Rejects when the edited copy does not build; the edit is undone either way by undo().
   */
  plant(edit: Edit): Promise<Implementation>;
  /** Undoes the planted edit (the next rebuild compiles the file back). */
  undo(): Promise<void>;
  remove(): Promise<void>;
}

/** The folders impl/<name>/.gitignore names (lines ending in /, at any depth): what a build writes there. */
async function builtFolders(implDir: string): Promise<string[]> {
  const ignore = await readFile(join(implDir, '.gitignore'), 'utf8').catch(() => '');
  return ignore
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => /^[\w.-]+\/$/.test(l))
    .map((l) => l.slice(0, -1));
}

/** The warm copy of an implementation whose manifest names `defects`, built; null for any other. */
export async function warmCopy(impl: Implementation, label = 'warm'): Promise<WarmCopy | null> {
  const defects = impl.manifest.defects;
  if (defects === undefined) return null;
  const dir = join(resultsDir, 'mutants', `${impl.manifest.name}-${label}`);
  await rm(dir, { recursive: true, force: true });
  // Not the folder's own build outputs (its .gitignore's folders, e.g. obj/): copied, they could
  // look newer than the sources and pass for up to date.
  const outputs = await builtFolders(impl.dir);
  await cp(impl.dir, dir, { recursive: true, filter: (src) => src === impl.dir || !outputs.includes(basename(src)) });
  const started = performance.now();
  await runStep({ ...impl, dir }, 'defects-build', defects.build);
  console.log(`  warm copy of ${impl.manifest.name} built in ${Math.round((performance.now() - started) / 1000)} s (${defects.build})`);
  const { build: _none, ...manifest } = impl.manifest;
  const built: Implementation = { ...impl, dir, manifest: { ...manifest, start: defects.start } };
  let planted: { file: string; original: string } | undefined;
  const undo = async () => {
    if (planted) await writeFile(join(dir, planted.file), planted.original);
    planted = undefined;
  };
  return {
    async plant(edit) {
      await undo();
      planted = { file: edit.file, original: await applyEdit(dir, edit) };
      const started = performance.now();
      await runStep(built, 'defects-rebuild', defects.rebuild, { FAIRBENCH_CHANGED: edit.file });
      console.log(`  rebuilt in ${((performance.now() - started) / 1000).toFixed(1)} s`);
      return built;
    },
    undo,
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}
