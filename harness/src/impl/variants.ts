// Runtimes as an axis: an implementation's manifest may declare variants (impl.yaml
// `variants`), each the same code on another runtime (express on Bun, spring on JDK 21),
// selected as IMPL=<name>@<variant>. A variant is resolved into the manifest it runs by,
// named by its label, so that every runner treats it as an implementation of its own:
// its own conformance verdict (the benchmark gate's), result documents and report series.
import { delimiter, join } from 'node:path';
import type { ImplManifest } from './manifest.ts';
import type { RuntimeName } from './runtimes.ts';

export const VARIANT_MARK = '@';

export interface ResolvedVariant {
  /** The variant's name: `bun`, `jdk21`; the default's is runtime.variant or the runtime's name. */
  readonly name: string;
  readonly isDefault: boolean;
  /** The folder under impl/. */
  readonly folder: string;
  /** Absolute directories first on PATH when it starts and when its runtime's version is read. */
  readonly path: readonly string[];
  /** Why the containers runtime refuses it (a non-default variant that declares so). */
  readonly containersUnsupported?: string;
}

/** A name given as IMPL that is not a variant the manifest declares. */
export class UnknownVariantError extends Error {}

/** `express@bun` → { folder: express, variant: bun }; `express` → { folder: express }. */
export function splitImplRef(ref: string): { folder: string; variant?: string } {
  const at = ref.indexOf(VARIANT_MARK);
  return at < 0 ? { folder: ref } : { folder: ref.slice(0, at), variant: ref.slice(at + 1) };
}

export function defaultVariantName(manifest: ImplManifest): string {
  return manifest.runtime.variant ?? manifest.runtime.name;
}

/** Every name IMPL takes for this folder: the default, `<name>@<default>`, and each `<name>@<variant>`. */
export function variantRefs(manifest: ImplManifest): string[] {
  const others = Object.keys(manifest.variants ?? {}).map((v) => `${manifest.name}${VARIANT_MARK}${v}`);
  return [manifest.name, `${manifest.name}${VARIANT_MARK}${defaultVariantName(manifest)}`, ...others];
}

/**
 * The manifest a variant runs by (`root` resolves its PATH directories). The default
 * variant keeps the manifest as it is, under the folder's name, so IMPL=express and
 * IMPL=express@node are one implementation with one verdict.
 */
export function resolveVariant(manifest: ImplManifest, variant: string | undefined, root: string): { manifest: ImplManifest; resolved: ResolvedVariant } {
  const folder = manifest.name;
  const defaultName = defaultVariantName(manifest);
  if (variant === undefined || variant === defaultName) return { manifest, resolved: { name: defaultName, isDefault: true, folder, path: [] } };
  const declared = manifest.variants?.[variant];
  if (declared === undefined) {
    const known = [defaultName, ...Object.keys(manifest.variants ?? {})];
    throw new UnknownVariantError(`impl/${folder}/impl.yaml declares no runtime variant '${variant}' (variants: ${known.join(', ')})`);
  }
  const runtime: { name: RuntimeName; version: string } = { ...declared.runtime };
  return {
    manifest: { ...manifest, name: `${folder}${VARIANT_MARK}${variant}`, runtime, start: declared.start, toolchain: declared.toolchain ?? manifest.toolchain },
    resolved: { name: variant, isDefault: false, folder, path: (declared.path ?? []).map((p) => join(root, p)), containersUnsupported: declared.containers.unsupported },
  };
}

/** PATH for the variant's start and version: its directories first, then `base`. */
export function variantPath(variant: ResolvedVariant, base = process.env['PATH'] ?? ''): string {
  return [...variant.path, ...base.split(delimiter).filter(Boolean)].join(delimiter);
}
