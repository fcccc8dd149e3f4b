// What make checklist's checks read: a root laid out as the repository (the repository itself,
// or a test's fixture), the implementation's manifest and the APIs it lists, and the current
// fingerprints its recorded verdicts are compared with (the gate's, or a test's).
import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { parse } from 'yaml';
import { readImplManifestAt, type ImplManifest } from '@fairbench/harness/impl/manifest.ts';

export type State = 'done' | 'missing' | 'stale';

export interface Outcome {
  readonly state: State;
  /** One line: what was found. */
  readonly why: string;
  /** The command that does it, when it depends on what was found (e.g. which lock file). */
  readonly command?: string;
}

export interface ApiFacts {
  readonly name: string;
  readonly hasPact: boolean;
  readonly hasResilience: boolean;
}

/** What a verdict is compared with: the same hashes the gate computes (bench/src/execute/gate.ts, pact/src/gate.ts). */
export interface Fingerprints {
  conformance(api: string): Promise<{ implTreeHash: string; specHash: string; suiteHash: string }>;
  /** Null when the API has no pact. */
  pact(api: string): Promise<{ implTreeHash: string; contractHash: string } | null>;
  /** When the implementation last changed: what a record without fingerprints (resilience, fuzzing) is dated against. */
  changedAt(): Promise<Date>;
}

export interface Context {
  readonly root: string;
  readonly impl: string;
  /** The manifest, or why it could not be read. */
  readonly manifest: ImplManifest | Error;
  readonly apis: readonly ApiFacts[];
  readonly fingerprints: Fingerprints;
}

/** {impl}, {api} and {dockerfile} filled in. */
export function fill(template: string, ctx: Context, api?: string): string {
  const dockerfile = ctx.manifest instanceof Error ? 'Dockerfile' : ctx.manifest.dockerfile;
  return template
    .replaceAll('{impl}', ctx.impl)
    .replaceAll('{api}', api ?? '{api}')
    .replaceAll('{dockerfile}', dockerfile);
}

/** The files a root-relative path names; a `*` in its last part matches any run of characters. */
export async function matching(root: string, path: string): Promise<string[]> {
  const name = basename(path);
  if (!name.includes('*')) return (await exists(join(root, path))) ? [path] : [];
  const pattern = new RegExp(`^${name.split('*').map(escape).join('.*')}$`);
  const entries = await readdir(join(root, dirname(path))).catch(() => [] as string[]);
  return entries
    .filter((e) => pattern.test(e))
    .sort()
    .map((e) => join(dirname(path), e));
}

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export const exists = (file: string): Promise<boolean> =>
  stat(file).then(
    () => true,
    () => false,
  );

export async function readJson<T>(root: string, path: string): Promise<T | undefined> {
  const text = await readFile(join(root, path), 'utf8').catch(() => undefined);
  return text === undefined ? undefined : (JSON.parse(text) as T);
}

/** The manifest, and for each API it lists whether it has a pact and resilience requests (apis/<api>/api.yaml, resilience/requests.yaml). */
export async function loadContext(root: string, impl: string, fingerprints: Fingerprints): Promise<Context> {
  const manifest = await readImplManifestAt(join(root, 'impl', impl)).catch((error: unknown) => (error instanceof Error ? error : new Error(String(error))));
  const names = manifest instanceof Error ? [] : manifest.apis;
  const apis = await Promise.all(
    names.map(async (name): Promise<ApiFacts> => {
      const api = parse(await readFile(join(root, 'apis', name, 'api.yaml'), 'utf8').catch(() => '{}')) as { pact?: string } | null;
      return { name, hasPact: typeof api?.pact === 'string', hasResilience: await exists(join(root, 'apis', name, 'resilience', 'requests.yaml')) };
    }),
  );
  return { root, impl, manifest, apis, fingerprints };
}
