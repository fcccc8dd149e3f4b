// Framework versions as an axis: IMPL=express~5.1.0 is impl/express with its framework package
// (impl.yaml framework.package) at another version, so that a framework's maintainer measures a
// release against another in one run: make bench IMPL=express~5.2.1,express. The folder is
// copied under .cache/packages/ and the package pinned there by the implementation's own
// package manager (framework.package.pin: npm install --save-exact, bun add --exact), lock file
// included; the copy is then built by the manifest's build like the original. It is an
// implementation of its own named by its label (its own gate verdicts, result documents and
// report series), its manifest's framework version the pinned one.
import { createHash } from 'node:crypto';
import { access, mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { COPY_SOURCE_FILE, implTreeHash } from '../fingerprint.ts';
import { cacheDir } from '../paths.ts';
import { copyImplFolder } from './edit.ts';
import { runStep } from './launch.ts';
import type { Implementation } from './manifest.ts';
import { REVISION_MARK } from './revisions.ts';

export const PACKAGE_MARK = '~';

/** A version a package manager takes as one exact version (semver, with a pre-release or build part). */
const EXACT_VERSION = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/;

/** `express~5.1.0` → { base: express, version: 5.1.0 }; after a revision's mark a `~` is the revision's (express:HEAD~2). */
export function splitPackage(ref: string): { base: string; version?: string } {
  const at = ref.indexOf(PACKAGE_MARK);
  const revision = ref.indexOf(REVISION_MARK);
  return at < 0 || (revision >= 0 && revision < at) ? { base: ref } : { base: ref.slice(0, at), version: ref.slice(at + 1) };
}

/** No framework package to pin (aspnet's is the SDK's shared framework), or a version that is not one exact version. */
export class UnknownPackageError extends Error {}

/** Why `version` of the implementation's framework package cannot be asked for, or null. */
export function packageRefusal(original: Implementation, version: string): string | null {
  const pkg = original.manifest.framework.package;
  if (pkg === undefined)
    return `impl/${original.variant.folder}/impl.yaml names no framework package to pin (framework.package): ${original.manifest.framework.name} ${original.manifest.framework.version} is not a package its build installs`;
  if (!EXACT_VERSION.test(version)) return `'${version}' is not one exact version of ${pkg.name} (IMPL=<name>~<version>, e.g. ${original.manifest.name}~${original.manifest.framework.version})`;
  return null;
}

/** The implementation with its framework package at `version`: a copy under .cache/packages/, pinned once per source and version. */
export async function withPackage(original: Implementation, version: string): Promise<Implementation> {
  const refusal = packageRefusal(original, version);
  if (refusal !== null) throw new UnknownPackageError(refusal);
  const pkg = original.manifest.framework.package!;
  const source = createHash('sha256')
    .update(await implTreeHash(original.dir))
    .update(JSON.stringify([pkg.name, version]))
    .digest('hex');
  const label = `${original.manifest.name}${PACKAGE_MARK}${version}`;
  // The folder keeps its name (a manifest names its folder); its parent names the copy.
  const dir = join(cacheDir, 'packages', `${version}-${source.slice(0, 16)}`, original.variant.folder);
  const manifest = { ...original.manifest, name: label, framework: { ...original.manifest.framework, version } };
  const pinned: Implementation = { ...original, manifest, dir, package: { name: pkg.name, version } };
  if (await access(join(dir, COPY_SOURCE_FILE)).then(() => true, () => false)) return pinned;
  await rm(dir, { recursive: true, force: true });
  await mkdir(dirname(dir), { recursive: true });
  await copyImplFolder(original, dir);
  // The package manager rewrites the manifest and the lock file as a maintainer's pin would.
  await runStep(pinned, 'pin', pkg.pin, { FRAMEWORK_PACKAGE: pkg.name, FRAMEWORK_VERSION: version, NODE_ENV: 'development' });
  // Written last: a copy whose pin failed is made again by the next load.
  await writeFile(join(dir, COPY_SOURCE_FILE), `sha256:${source}\n`);
  return pinned;
}
