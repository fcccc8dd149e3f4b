// Planted cheats: IMPL=<name>+<cheat> is the implementation with one cheat planted in it, as
// apis/<api>/cheats/<name>.yaml declares it (format: harness/schemas/planted-cheats.schema.json):
// a textual edit that makes the implementation skip work the contract asks for where the
// conformance suite cannot see it (an answer cache above a request rate, a write acknowledged
// before it is made, a transaction split), so that the benchmark's proof of work is shown to
// catch what the gate misses (make cheats). The copy is made under .cache/planted/, named by
// its source's hash and the cheat, and is an implementation of its own named by its label
// everywhere IMPL is taken (its own gate verdicts, result documents), serving the cheat's API alone.
import { createHash } from 'node:crypto';
import { access, mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { applyEdit, copyImplFolder, linkInstalls } from './edit.ts';
import { parse } from 'yaml';
import { loadApis } from '../api/manifest.ts';
import { COPY_SOURCE_FILE, implTreeHash } from '../fingerprint.ts';
import { cacheDir } from '../paths.ts';
import type { Implementation } from './manifest.ts';
import schema from '../../schemas/planted-cheats.schema.json' with { type: 'json' };

export const PLANT_MARK = '+';

export interface PlantedCheat {
  readonly id: string;
  /** What it skips, and why conformance cannot see it. */
  readonly why: string;
  /** Relative to impl/<implementation>. */
  readonly file: string;
  /** Text that occurs exactly once in the file. */
  readonly replace: string;
  readonly with: string;
  /** The benchmark cases that show it (make bench's CASES), and the work counters it must leave missing there. */
  readonly caughtBy: { readonly cases: string; readonly missing: readonly string[] };
}

export interface CheatsFile {
  readonly implementation: string;
  readonly cheats: readonly PlantedCheat[];
}

/** A cheat with the API whose folder declares it. */
export interface FoundCheat extends PlantedCheat {
  readonly api: string;
  readonly implementation: string;
}

const validate = new Ajv2020({ allErrors: true }).compile<CheatsFile>(schema);

/** `express+answer-cache` → { base: express, cheat: answer-cache }. */
export function splitPlanted(ref: string): { base: string; cheat?: string } {
  const at = ref.indexOf(PLANT_MARK);
  return at < 0 ? { base: ref } : { base: ref.slice(0, at), cheat: ref.slice(at + 1) };
}

/** Every planted cheat of every API (apis/<api>/cheats/<impl>.yaml), validated. */
export async function loadCheats(): Promise<FoundCheat[]> {
  const found: FoundCheat[] = [];
  for (const api of await loadApis()) {
    const dir = join(api.dir, 'cheats');
    for (const name of (await readdir(dir).catch(() => [] as string[])).filter((n) => n.endsWith('.yaml')).sort()) {
      const file = join(dir, name);
      const data: unknown = parse(await readFile(file, 'utf8'));
      if (!validate(data)) throw new Error(`${file}: ${(validate.errors ?? []).map((e) => `${e.instancePath} ${e.message ?? ''}`).join('; ')}`);
      if (`${data.implementation}.yaml` !== name) throw new Error(`${file}: implementation '${data.implementation}' must match the file name`);
      found.push(...data.cheats.map((c) => ({ ...c, api: api.manifest.name, implementation: data.implementation })));
    }
  }
  const ids = found.map((c) => `${c.implementation}${PLANT_MARK}${c.id}`);
  const twice = ids.find((id, i) => ids.indexOf(id) !== i);
  if (twice) throw new Error(`the planted cheat ${twice} is declared twice (apis/*/cheats/): an implementation's cheat ids are one namespace`);
  return found;
}

/** A name that is no cheat the APIs declare for that implementation. */
export class UnknownCheatError extends Error {}

export async function findCheat(folder: string, id: string): Promise<FoundCheat> {
  const all = await loadCheats();
  const cheat = all.find((c) => c.implementation === folder && c.id === id);
  if (!cheat) {
    const known = all.filter((c) => c.implementation === folder).map((c) => c.id);
    throw new UnknownCheatError(`no planted cheat '${id}' of ${folder} in apis/*/cheats/${folder}.yaml (${known.length ? `cheats: ${known.join(', ')}` : 'it has none'})`);
  }
  return cheat;
}

/** The implementation with the cheat planted: a copy under .cache/planted/, made once per source and cheat. */
export async function plant(original: Implementation, cheat: FoundCheat): Promise<Implementation> {
  const source = createHash('sha256')
    .update(await implTreeHash(original.dir))
    .update(JSON.stringify([cheat.file, cheat.replace, cheat.with]))
    .digest('hex');
  // The folder keeps its name (a manifest names its folder); its parent names the copy.
  const dir = join(cacheDir, 'planted', `${cheat.id}-${source.slice(0, 16)}`, original.variant.folder);
  const label = `${original.manifest.name}${PLANT_MARK}${cheat.id}`;
  if (!(await access(join(dir, COPY_SOURCE_FILE)).then(() => true, () => false))) {
    await rm(dir, { recursive: true, force: true });
    await mkdir(dirname(dir), { recursive: true });
    await copyImplFolder(original, dir);
    await applyEdit(dir, { ...cheat, id: `planted cheat ${label}` });
    await writeFile(join(dir, COPY_SOURCE_FILE), `sha256:${source}\n`);
  }
  // Where the build only installs the lock file's packages, the copy links the original's (built first when missing).
  const linked = await linkInstalls(original, dir, cheat.file);
  const { build, ...rest } = original.manifest;
  const manifest = { ...rest, ...(linked || build === undefined ? {} : { build }), name: label, apis: [cheat.api] };
  return { ...original, manifest, dir, planted: { cheat: cheat.id, api: cheat.api } };
}
