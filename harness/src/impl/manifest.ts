// Reads and validates impl/<name>/impl.yaml, the contract between an implementation and the harness.
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { readFolderManifest } from '../folder-manifest.ts';
import { repoRoot } from '../paths.ts';
import manifestSchema from '../../schemas/impl-manifest.schema.json' with { type: 'json' };

export interface ImplManifest {
  readonly name: string;
  readonly language: string;
  readonly framework: { readonly name: string; readonly version: string };
  readonly runtime: { readonly name: 'node' | 'bun' | 'java' | 'dotnet'; readonly version: string };
  /** Names of folders under apis/ (checked by the runners against what is there). */
  readonly apis: readonly string[];
  readonly toolchain: readonly string[];
  readonly build?: string;
  readonly start: string;
  readonly test?: string;
  readonly dockerfile: string;
  /** The images.yaml role of the Dockerfile's build stage (BUILD_IMAGE), when it differs from the runtime's. */
  readonly buildImage?: string;
  readonly tuning: string;
  /** The bounds make resilience holds it to, and how it reaches them (pool, connect and statement timeouts). */
  readonly resilience?: { readonly stallBoundMs: number; readonly shutdownBoundMs: number; readonly how: string };
}

export interface Implementation {
  readonly manifest: ImplManifest;
  /** Absolute path of impl/<name>. */
  readonly dir: string;
}

export const implRoot = join(repoRoot, 'impl');
const validate = new Ajv2020({ allErrors: true }).compile<ImplManifest>(manifestSchema);

export async function loadImplementation(name: string): Promise<Implementation> {
  const dir = join(implRoot, name);
  const manifest = await readFolderManifest(dir, 'impl.yaml', validate);
  if (!manifest) throw new Error(`impl/${name} has no impl.yaml: every folder under impl/ is an implementation and needs its manifest`);
  return { manifest, dir };
}

/** Every implementation under impl/, sorted by name. */
export async function loadImplementations(): Promise<Implementation[]> {
  const entries = await readdir(implRoot, { withFileTypes: true });
  const names = entries.filter((e) => e.isDirectory()).map((e) => e.name).sort();
  return Promise.all(names.map(loadImplementation));
}
