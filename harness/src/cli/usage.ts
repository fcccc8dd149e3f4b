// Usage errors of every make target: a value the command cannot take (a missing or unknown
// IMPL or API, an option out of range, an implementation that does not serve the API).
// runMain prints one line naming the accepted values and exits 2, with no stack trace:
// stack traces are for bugs. The accepted values are read from impl/ and apis/, never listed here.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { apiNames } from '../api/manifest.ts';
import { implRoot, loadImplementation, readImplManifest, type Implementation } from '../impl/manifest.ts';
import { packageRefusal, splitPackage } from '../impl/packages.ts';
import { findCheat, PLANT_MARK, splitPlanted, UnknownCheatError } from '../impl/planted.ts';
import { REVISION_MARK, resolveRevision, splitRevision, UnknownRevisionError } from '../impl/revisions.ts';
import { splitImplRef, variantRefs } from '../impl/variants.ts';
import { readdir } from 'node:fs/promises';

/** The exit code of a usage error, for every command. */
export const USAGE_EXIT = 2;

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** The command is right but cannot run here (a missing toolchain, a gate refused): one line, exit code 1. */
export class CannotRun extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CannotRun';
  }
}

/** "IMPL must be one of a, b, c, got 'x'" — the one shape every usage line takes. */
export function notAccepted(what: string, given: string, accepted: readonly string[]): UsageError {
  return new UsageError(`${what} must be ${accepted.length === 1 ? accepted[0] : `one of ${accepted.join(', ')}`}, got '${given}'`);
}

/** A variable the command needs and was not given: "give IMPL, one of a, b (e.g. make bench IMPL=a)". */
export function missing(what: string, accepted: readonly string[], example?: string): UsageError {
  return new UsageError(`give ${what}, one of ${accepted.join(', ')}${example ? ` (e.g. ${example})` : ''}`);
}

/** parseArgs whose own complaints (an unknown option, a missing value) are usage errors. */
export function parseCli<T extends ParseArgsConfig>(config: T): ReturnType<typeof parseArgs<T>> {
  try {
    return parseArgs(config);
  } catch (error) {
    const accepted = Object.keys(config.options ?? {}).map((o) => `--${o}`);
    throw new UsageError(`${(error as Error).message.split('\n')[0]!} (options: ${accepted.join(', ') || 'none'})`);
  }
}

/** A comma-separated make variable as a list; empty or absent = undefined. */
export function listArg(value: string | undefined): string[] | undefined {
  const items = (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return items.length === 0 ? undefined : items;
}

/** A number option: absent = the fallback; outside [min, max] a usage error. */
export function numberArg(what: string, raw: string | undefined, fallback: number, min: number, max = Infinity): number {
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < min || n > max)
    throw new UsageError(`${what} must be a number ${max === Infinity ? `≥ ${min}` : `from ${min} to ${max}`}, got '${raw}'`);
  return n;
}

/** One of a few words (PIN=0|1, PROTOCOL=rest|graphql …); absent = undefined. */
export function choiceArg(what: string, raw: string | undefined, accepted: readonly string[]): string | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (!accepted.includes(raw)) throw notAccepted(what, raw, accepted);
  return raw;
}

/** The folders under impl/ (each an implementation), sorted. */
export async function implNames(): Promise<string[]> {
  const entries = await readdir(implRoot, { withFileTypes: true });
  return entries
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
}

/**
 * Every name must be an implementation under impl/, or one of its runtime variants
 * (express@bun, impl.yaml `variants`), either at a git revision (express:main): else a
 * usage error naming those there are.
 */
export async function checkImplNames(given: readonly string[]): Promise<void> {
  const known = await implNames();
  for (const ref of given) {
    const { base: unpinned, version } = splitPackage(ref);
    if (version !== undefined) {
      await checkImplNames([unpinned]);
      if (unpinned.includes(PLANT_MARK))
        throw new UsageError(`IMPL=${ref}: a framework version is pinned in the working tree's folder or a variant of it, not in a planted cheat`);
      const refusal = packageRefusal(await loadImplementation(unpinned), version);
      if (refusal !== null) throw new UsageError(`IMPL=${ref}: ${refusal}`);
      continue;
    }
    const { base: unplanted, revision } = splitRevision(ref);
    const { base, cheat } = splitPlanted(unplanted);
    if (cheat !== undefined) {
      await checkImplNames([base]);
      if (revision !== undefined) throw new UsageError(`IMPL=${ref}: a cheat is planted in the working tree's folder, not in a revision`);
      const error = await findCheat(splitImplRef(base).folder, cheat).then(
        () => null,
        (e: unknown) => (e instanceof UnknownCheatError ? e : Promise.reject(e)),
      );
      if (error) throw new UsageError(`IMPL=${ref}: ${error.message}`);
      continue;
    }
    const { folder, variant } = splitImplRef(base);
    if (revision === undefined && !known.includes(folder)) throw notAccepted('IMPL', ref, known);
    if (revision !== undefined) {
      const error = await resolveRevision(folder, revision).then(
        () => null,
        (e: unknown) => (e instanceof UnknownRevisionError ? e : Promise.reject(e)),
      );
      if (error) throw new UsageError(`IMPL=${ref}: ${error.message}`);
    }
    if (variant === undefined) continue;
    const manifest = revision === undefined ? await readImplManifest(folder) : (await loadImplementation(`${folder}${REVISION_MARK}${revision}`)).manifest;
    const refs = variantRefs({ ...manifest, name: folder });
    if (!refs.includes(base)) throw notAccepted('IMPL', ref, refs.slice(1));
  }
}

/** Every name must be an API under apis/: else a usage error naming them. */
export async function checkApiNames(given: readonly string[]): Promise<void> {
  const known = await apiNames();
  const unknown = given.find((n) => !known.includes(n));
  if (unknown !== undefined) throw notAccepted('API', unknown, known);
}

/** The implementation named, or a usage error naming those there are. */
export async function implementation(name: string): Promise<Implementation> {
  await checkImplNames([name]);
  return loadImplementation(name);
}

/** The implementation must serve the API (its impl.yaml lists it): else a usage error naming those it serves. */
export function checkServes(impl: Implementation, api: string): void {
  const served = impl.manifest.apis;
  if (!served.includes(api))
    throw new UsageError(
      `${impl.manifest.name} does not serve the ${api} API: API must be ${served.length === 1 ? served[0] : `one of ${served.join(', ')}`} for IMPL=${impl.manifest.name} (impl/${impl.variant.folder}/impl.yaml)`,
    );
}

/**
 * IMPL and API of a command that runs pairs (conformance, fuzz): known names, and each
 * implementation named serves one of the APIs named (else nothing of it would run).
 */
export async function checkPairs(impls: readonly string[] | undefined, apis: readonly string[] | undefined): Promise<void> {
  await checkImplNames(impls ?? []);
  await checkApiNames(apis ?? []);
  if (!impls || !apis || apis.length === 0) return;
  for (const impl of await Promise.all(impls.map((n) => loadImplementation(n)))) {
    if (!apis.some((a) => impl.manifest.apis.includes(a))) checkServes(impl, apis[0]!);
  }
}
