// The images the containers runtime starts: from images/images.yaml, either the official
// registry images (FAIRBENCH_IMAGES=official, e.g. GitHub's runners) or local equivalents
// built from a debootstrapped Debian (the default: no registry on this project's machines).
// A local image's tag is a hash of its inputs, so an existing tag means "already built".
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { parse } from 'yaml';
import { cacheDir, repoRoot } from '../paths.ts';
import { runCommand, startProcess } from '../process.ts';
import imagesSchema from '../../../images/images.schema.json' with { type: 'json' };
import { PROJECT_LABEL, podman, podmanEnv, probeCommand } from './engine.ts';

export interface ImageSpec {
  readonly official: string;
  readonly debootstrap?: { readonly suite: string; readonly variant: string; readonly mirror: string };
  readonly base?: string;
  readonly npm?: Readonly<Record<string, string>>;
  readonly files?: Readonly<Record<string, string>>;
  readonly inputs?: readonly string[];
}

export type ImageSource = 'local' | 'official';

export const imagesDir = path.join(repoRoot, 'images');
const workDir = path.join(cacheDir, 'images');
const BUILD_TIMEOUT_MS = 15 * 60_000;

let specs: Record<string, ImageSpec> | undefined;

export function imageSpecs(): Record<string, ImageSpec> {
  if (specs) return specs;
  const data: unknown = parse(fs.readFileSync(path.join(imagesDir, 'images.yaml'), 'utf8'));
  const validate = new Ajv2020({ allErrors: true }).compile<Record<string, ImageSpec>>(imagesSchema);
  if (!validate(data)) throw new Error(`images/images.yaml: ${(validate.errors ?? []).map((e) => `${e.instancePath} ${e.message ?? ''}`).join('; ')}`);
  for (const [name, spec] of Object.entries(data)) {
    if (spec.base !== undefined && !(spec.base in data)) throw new Error(`images/images.yaml: ${name}'s base '${spec.base}' is not defined`);
  }
  return (specs = data);
}

/** FAIRBENCH_IMAGES=official uses the registry's images; anything else the locally built ones. */
export function imageSource(): ImageSource {
  return process.env['FAIRBENCH_IMAGES'] === 'official' ? 'official' : 'local';
}

function spec(name: string): ImageSpec {
  const s = imageSpecs()[name];
  if (!s) throw new Error(`no image '${name}' in images/images.yaml`);
  return s;
}

/** The reference to start or build FROM for an image role, per the image source. */
export function imageRef(name: string, source: ImageSource = imageSource()): string {
  return source === 'official' ? spec(name).official : localRef(name);
}

const localRefs = new Map<string, string>();

/** localhost/fairbench/<name>:<12 hex of the hash of everything the image is made from>. */
export function localRef(name: string): string {
  const known = localRefs.get(name);
  if (known) return known;
  const s = spec(name);
  const hash = createHash('sha256').update(JSON.stringify({ name, s }));
  if (s.base) hash.update(localRef(s.base));
  const dir = path.join(imagesDir, name);
  if (fs.existsSync(dir)) {
    for (const file of fs.readdirSync(dir).sort()) hash.update(file).update(fs.readFileSync(path.join(dir, file)));
  }
  for (const input of s.inputs ?? []) hash.update(input).update(fs.readFileSync(path.join(repoRoot, input)));
  // A small file counts by its content; a copied binary by where it resolves to (versioned
  // paths, e.g. ferretdb-v1.24.0-<patch hash>, or versions in `npm`/`inputs`), not by hashing hundreds of MB each run.
  for (const [as, source] of Object.entries(s.files ?? {})) hash.update(as).update(fileIdentity(source));
  const ref = `localhost/fairbench/${name}:${hash.digest('hex').slice(0, 12)}`;
  localRefs.set(name, ref);
  return ref;
}

function fileIdentity(source: string): string | Buffer {
  try {
    const file = fs.realpathSync(path.resolve(repoRoot, source));
    const stat = fs.statSync(file);
    if (stat.isFile() && stat.size < 1 << 20) return fs.readFileSync(file);
    return path.relative(repoRoot, file);
  } catch {
    return source;
  }
}

/** Whether the image exists in Podman's store (bounded). */
export async function localImageExists(ref: string): Promise<boolean> {
  try {
    await podman(['image', 'exists', ref], 15_000);
    return true;
  } catch {
    return false;
  }
}

/** The same, synchronously, for the runtime probe. */
export function localImageExistsSync(ref: string): boolean {
  return probeCommand('podman', ['image', 'exists', ref]).ok;
}

export interface BuildReport {
  readonly name: string;
  readonly ref: string;
  /** null when the tag existed already. */
  readonly buildMs: number | null;
  readonly sizeBytes: number;
}

/** Builds every local image that does not exist yet (bases first); returns what it did. */
export async function buildLocalImages(names: readonly string[] = Object.keys(imageSpecs())): Promise<BuildReport[]> {
  const reports = new Map<string, BuildReport>();
  const build = async (name: string): Promise<void> => {
    if (reports.has(name)) return;
    const s = spec(name);
    if (s.base) await build(s.base);
    const ref = localRef(name);
    let buildMs: number | null = null;
    if (!(await localImageExists(ref))) {
      const started = performance.now();
      if (s.debootstrap) await importDebootstrap(name, s.debootstrap, ref);
      else await buildFromDockerfile(name, s, ref);
      buildMs = performance.now() - started;
      await removeSuperseded(ref);
    }
    const { stdout } = await podman(['image', 'inspect', '--format', '{{.Size}}', ref], 15_000);
    reports.set(name, { name, ref, buildMs, sizeBytes: Number(stdout.trim()) });
  };
  for (const name of names) await build(name);
  return [...reports.values()];
}

/**
 * Removes the other tags of the image's repository (earlier inputs), so that rebuilds do not
 * pile up in Podman's store; layers still used by another image stay.
 */
export async function removeSuperseded(ref: string): Promise<void> {
  const repository = ref.slice(0, ref.lastIndexOf(':'));
  const { stdout } = await podman(['images', '--format', '{{.Repository}}:{{.Tag}}', '--filter', `reference=${repository}`], 15_000);
  const old = stdout
    .split('\n')
    .map((l) => l.trim())
    .filter((r) => r.startsWith(`${repository}:`) && r !== ref);
  if (old.length > 0) await podman(['rmi', '--ignore', ...old], 60_000).catch(() => undefined); // in use by a container: next time
}

async function importDebootstrap(name: string, d: NonNullable<ImageSpec['debootstrap']>, ref: string): Promise<void> {
  const tarball = path.join(workDir, `${name}-${ref.split(':').pop()}.tar`);
  if (!fs.existsSync(tarball)) {
    fs.mkdirSync(workDir, { recursive: true });
    const rootfs = fs.mkdtempSync(path.join(workDir, `${name}-rootfs-`));
    try {
      await step(`${name}-debootstrap`, 'debootstrap', [`--variant=${d.variant}`, d.suite, rootfs, d.mirror]);
      await runCommand('tar', ['-C', rootfs, '-cf', `${tarball}.tmp`, '.'], { timeoutMs: 5 * 60_000 });
      fs.renameSync(`${tarball}.tmp`, tarball);
    } finally {
      fs.rmSync(rootfs, { recursive: true, force: true });
      fs.rmSync(`${tarball}.tmp`, { force: true });
    }
  }
  await podman(['import', '--change', 'CMD ["/bin/bash"]', tarball, ref], 5 * 60_000);
}

async function buildFromDockerfile(name: string, s: ImageSpec, ref: string): Promise<void> {
  for (const [pkg, version] of Object.entries(s.npm ?? {})) await npmPackage(pkg, version);
  fs.mkdirSync(workDir, { recursive: true });
  const context = fs.mkdtempSync(path.join(workDir, `${name}-context-`));
  try {
    fs.cpSync(path.join(imagesDir, name), context, { recursive: true });
    for (const [as, source] of Object.entries(s.files ?? {})) {
      const from = path.resolve(repoRoot, source);
      if (!fs.existsSync(from)) throw new Error(`${name}: ${source} not found (run make setup)`);
      fs.cpSync(fs.realpathSync(from), path.join(context, as), { recursive: true, dereference: true });
    }
    const base = s.base ? ['--build-arg', `BASE=${localRef(s.base)}`] : [];
    await step(`${name}-build`, 'podman', [
      'build',
      '--network=host',
      '--pull=never',
      ...base,
      '--label',
      `${PROJECT_LABEL}=1`,
      '--label',
      `${PROJECT_LABEL}.image=${name}`,
      '-t',
      ref,
      context,
    ]);
  } finally {
    fs.rmSync(context, { recursive: true, force: true });
  }
}

/** npm install <pkg>@<version> under .cache/images/npm/<pkg>, once per version. */
async function npmPackage(pkg: string, version: string): Promise<void> {
  const prefix = path.join(workDir, 'npm', pkg);
  const installed = path.join(prefix, 'node_modules', pkg, 'package.json');
  try {
    if ((JSON.parse(fs.readFileSync(installed, 'utf8')) as { version?: string }).version === version) return;
  } catch {
    // not installed yet
  }
  fs.rmSync(prefix, { recursive: true, force: true });
  await runCommand('npm', ['install', '--prefix', prefix, '--no-save', '--no-audit', '--no-fund', `${pkg}@${version}`], { timeoutMs: 5 * 60_000 });
}

/** A slow command as a managed process (stopped on Ctrl-C), its output in .cache/images/logs. */
async function step(name: string, command: string, args: string[]): Promise<void> {
  const logFile = path.join(workDir, 'logs', `${name}.log`);
  fs.rmSync(logFile, { force: true });
  const child = startProcess({ name, command, args, env: podmanEnv(), logFile });
  const timer = setTimeout(() => void child.stop(), BUILD_TIMEOUT_MS);
  const code = await child.exited.finally(() => clearTimeout(timer));
  if (code !== 0) throw new Error(`${name} failed (exit ${code}; log: ${logFile}):\n${await child.tail(30)}`);
}
