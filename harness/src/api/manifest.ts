// Reads and validates apis/<name>/api.yaml: an API is found by its folder, like an
// implementation, and its manifest says what it is. Nothing outside apis/ lists the APIs.
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { readFolderManifest } from '../folder-manifest.ts';
import { repoRoot } from '../paths.ts';
import type { DatabaseKind } from '../provision/types.ts';
import manifestSchema from '../../schemas/api-manifest.schema.json' with { type: 'json' };

export type SuiteName = 'questions' | 'scenarios' | 'flows' | 'bad-input';
export type LoadModel = 'closed' | 'open' | 'arrivals' | 'sequential';

export interface ApiManifest {
  readonly name: string;
  readonly title: string;
  readonly paper: { readonly title: string; readonly authors: string };
  readonly databases: readonly DatabaseKind[];
  readonly graphql: boolean;
  readonly conformance: {
    readonly suites: readonly SuiteName[];
    readonly fuzz?: {
      readonly phases?: readonly string[];
      readonly maxExamples?: number;
      /** Schemathesis checks that cannot hold for this API's schema (its `why` says which rule JSON Schema cannot state). */
      readonly excludeChecks?: readonly string[];
      /** A login the fuzzer sends first; its token goes on every generated request. */
      readonly auth?: {
        readonly login: { readonly method: string; readonly path: string; readonly json: unknown };
        /** JSON pointer of the token in the login answer. */
        readonly token: string;
        readonly header: string;
        readonly scheme: string;
      };
      readonly why?: string;
    };
  };
  /** The consumer contract module (pact/index.ts), relative to the API folder. */
  readonly pact?: string;
  readonly bench: {
    readonly scenario: string;
    readonly script: string;
    readonly models: readonly LoadModel[];
    readonly writes: boolean;
    /** Its k6 script can send switched slices (bench/k6/measure.js target()); with writes, each implementation its own database. */
    readonly switching?: boolean;
    /** What a load and a start of its runs cost besides the load, measured on its runs, where they cost more than bench/profiles.yaml's `eta` (the plan's time). */
    readonly eta?: { readonly repetitionOverheadSeconds?: number; readonly caseOverheadSeconds?: number };
    readonly baseline: string;
    /** The tier of the database alone its cases are measured against (default: native, where it ran). */
    readonly limit?: { readonly tier: 'native' | 'driver'; readonly why: string };
    /** make test's benchmark smoke; everyImplementation: on each implementation that serves the API, not only the first. */
    readonly smoke?: { readonly cases: string; readonly native?: string; readonly everyImplementation?: boolean };
  };
}

/** make test's smoke of an API: of the implementations that can run it (in name order), the first, or each where the smoke says everyImplementation. */
export function smokeImplementations(api: ApiManifest, candidates: readonly string[]): string[] {
  return api.bench.smoke?.everyImplementation === true ? [...candidates] : candidates.slice(0, 1);
}

export interface Api {
  readonly manifest: ApiManifest;
  /** Absolute path of apis/<name>. */
  readonly dir: string;
}

/** FAIRBENCH_APIS_DIR lets a test point discovery at a folder of its own (a throwaway API). */
export const apisRoot: string = process.env.FAIRBENCH_APIS_DIR ?? join(repoRoot, 'apis');
const validate = new Ajv2020({ allErrors: true }).compile<ApiManifest>(manifestSchema);

export async function loadApi(name: string, root = apisRoot): Promise<Api> {
  const dir = join(root, name);
  const manifest = /^[a-z][a-z0-9-]*$/.test(name) ? await readFolderManifest(dir, 'api.yaml', validate) : undefined;
  if (!manifest) {
    const known = await apiNames(root).catch(() => []);
    throw new UnknownApiError(`no API named '${name}' (known: ${known.join(', ') || 'none'}): an API is a folder apis/<name>/ with an api.yaml`);
  }
  return { manifest, dir };
}

/** The names of the folders under apis/ that hold an api.yaml, sorted. */
export async function apiNames(root = apisRoot): Promise<string[]> {
  const entries = await readdir(root, { withFileTypes: true });
  const names: string[] = [];
  for (const e of entries.filter((d) => d.isDirectory()).sort((a, b) => a.name.localeCompare(b.name))) {
    if (
      await readFile(join(root, e.name, 'api.yaml')).then(
        () => true,
        () => false,
      )
    )
      names.push(e.name);
  }
  return names;
}

/** Every API under apis/, sorted by name. */
export async function loadApis(root = apisRoot): Promise<Api[]> {
  return Promise.all((await apiNames(root)).map((n) => loadApi(n, root)));
}

/** A name that is no API: a usage error, said in one line. */
export class UnknownApiError extends Error {}
