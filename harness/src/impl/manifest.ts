// Reads and validates impl/<name>/impl.yaml, the contract between an implementation and the harness,
// and resolves a runtime variant (IMPL=express@bun, variants.ts) into the manifest it runs by,
// a revision (IMPL=express:main, revisions.ts) into the folder it was at that commit, and a framework
// version (IMPL=express~5.2.1, packages.ts) into a copy with the package pinned.
import { readdir } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { readFolderManifest } from '../folder-manifest.ts';
import { repoRoot } from '../paths.ts';
import { RUNTIME_NAMES, type RuntimeName } from './runtimes.ts';
import { withPackage, splitPackage, UnknownPackageError } from './packages.ts';
import { findCheat, plant, PLANT_MARK, splitPlanted, UnknownCheatError } from './planted.ts';
import { resolveRevision, revisionDir, revisionLabel, splitRevision } from './revisions.ts';
import { resolveVariant, splitImplRef, type ResolvedVariant } from './variants.ts';
import manifestSchema from '../../schemas/impl-manifest.schema.json' with { type: 'json' };

export interface ImplManifest {
  readonly name: string;
  readonly language: string;
  readonly framework: {
    readonly name: string;
    readonly version: string;
    /** The package its build installs the framework from, and the package manager's command that pins it (IMPL=<name>~<version>, packages.ts). */
    readonly package?: { readonly name: string; readonly pin: string };
  };
  /** The default runtime; `variant` names it as a variant (default: its name). */
  readonly runtime: { readonly name: RuntimeName; readonly version: string; readonly variant?: string };
  /** Other runtimes it runs on: IMPL=<name>@<variant>. */
  readonly variants?: Readonly<Record<string, RuntimeVariant>>;
  /** Names of folders under apis/ (checked by the runners against what is there). */
  readonly apis: readonly string[];
  readonly toolchain: readonly string[];
  readonly build?: string;
  /** The folder the build installs from the top-level manifest and lock files alone (node_modules): see mutate(). */
  readonly installs?: string;
  readonly start: string;
  /** make mutants' warm copy: built once, then each defect's edit rebuilt alone (conformance/src/warm-copy.ts). */
  readonly defects?: { readonly build: string; readonly rebuild: string; readonly start: string };
  readonly test?: string;
  readonly dockerfile: string;
  /** The images.yaml role of the Dockerfile's build stage (BUILD_IMAGE), when it differs from the runtime's. */
  readonly buildImage?: string;
  readonly tuning: string;
  /** Why it cannot be run yet: every suite and the benchmark skip it with this reason. */
  readonly notReady?: string;
  /** The bounds make resilience holds it to, and how it reaches them (pool, connect and statement timeouts). */
  readonly resilience?: { readonly stallBoundMs: number; readonly shutdownBoundMs: number; readonly how: string };
}


export interface RuntimeVariant {
  readonly runtime: { readonly name: RuntimeName; readonly version: string };
  readonly start: string;
  readonly toolchain?: readonly string[];
  /** Directories (relative to the repository root) first on PATH when it starts and when its version is read. */
  readonly path?: readonly string[];
  readonly containers: { readonly unsupported: string };
}

export interface Implementation {
  /**
   * The manifest it runs by: for a variant, `name` is its label (express@bun) and `runtime`,
   * `start` and `toolchain` are the variant's, so that verdicts, results and logs are the variant's own.
   */
  readonly manifest: ImplManifest;
  /** Absolute path of impl/<folder>, or of its copy at a revision (.cache/revisions/). */
  readonly dir: string;
  /** Which runtime variant of the folder this is. */
  readonly variant: ResolvedVariant;
  /** The folder at a git revision (IMPL=express:main); its manifest's `name` is then the label, express:<commit>. */
  readonly revision?: { readonly revision: string; readonly commit: string };
  /** A planted cheat (IMPL=express+answer-cache, planted.ts): the copy serves the cheat's API alone. */
  readonly planted?: { readonly cheat: string; readonly api: string };
  /** Its framework package at another version (IMPL=express~5.1.0, packages.ts); its manifest's framework version is then that one. */
  readonly package?: { readonly name: string; readonly version: string };
}

/** The images.yaml roles its image is built from: its runtime's (BASE_IMAGE) and its build stage's, when it names one (BUILD_IMAGE). */
export function imageRoles(manifest: ImplManifest): string[] {
  return [manifest.runtime.name, ...(manifest.buildImage !== undefined ? [manifest.buildImage] : [])];
}

export const implRoot = join(repoRoot, 'impl');
// The schema's runtime names are runtimes.ts's, added here so that the list is written once.
const validate = new Ajv2020({ allErrors: true }).compile<ImplManifest>({
  ...manifestSchema,
  $defs: { ...manifestSchema.$defs, runtimeName: { ...manifestSchema.$defs.runtimeName, enum: RUNTIME_NAMES } },
});

/** impl/<folder>/impl.yaml as written (no variant applied). */
export async function readImplManifest(folder: string): Promise<ImplManifest> {
  return readImplManifestAt(join(implRoot, folder));
}

/** The impl.yaml of an implementation folder anywhere (make checklist's test fixture), validated as every command validates it. */
export async function readImplManifestAt(dir: string): Promise<ImplManifest> {
  const manifest = await readFolderManifest(dir, 'impl.yaml', validate);
  if (!manifest) throw new Error(`impl/${basename(dir)} has no impl.yaml: every folder under impl/ is an implementation and needs its manifest`);
  return manifest;
}

/**
 * `express` (its default runtime), `express@bun` (a variant), `express@node` (the default
 * named), any of them at a git revision (`express:main`, `express@bun:HEAD~2`), or with a
 * planted cheat (`express+answer-cache`), or with its framework package at another version (`express~5.1.0`).
 */
export async function loadImplementation(ref: string): Promise<Implementation> {
  const { base: unpinned, version } = splitPackage(ref);
  if (version !== undefined) {
    if (unpinned.includes(PLANT_MARK)) throw new UnknownPackageError(`IMPL=${ref}: a framework version is pinned in the working tree's folder or a variant of it, not in a planted cheat`);
    return withPackage(await loadImplementation(unpinned), version);
  }
  const { base: unplanted, revision } = splitRevision(ref);
  const { base, cheat } = splitPlanted(unplanted);
  if (cheat !== undefined) {
    if (revision !== undefined) throw new UnknownCheatError(`IMPL=${ref}: a cheat is planted in the working tree's folder, not in a revision`);
    const original = await loadImplementation(base);
    return plant(original, await findCheat(original.variant.folder, cheat));
  }
  const { folder, variant } = splitImplRef(base);
  if (revision === undefined) {
    const { manifest, resolved } = resolveVariant(await readImplManifest(folder), variant, repoRoot);
    return { manifest, dir: join(implRoot, folder), variant: resolved };
  }
  const commit = await resolveRevision(folder, revision);
  const dir = await revisionDir(folder, commit);
  const { manifest, resolved } = resolveVariant(await readImplManifestAt(dir), variant, repoRoot);
  return { manifest: { ...manifest, name: revisionLabel(manifest.name, commit) }, dir, variant: resolved, revision: { revision, commit } };
}

/** Every implementation under impl/ on its default runtime, sorted by name. */
export async function loadImplementations(): Promise<Implementation[]> {
  const entries = await readdir(implRoot, { withFileTypes: true });
  const names = entries.filter((e) => e.isDirectory()).map((e) => e.name).sort();
  return Promise.all(names.map(loadImplementation));
}
