// An implementation in the containers runtime: its image is built from its own Dockerfile
// through Testcontainers, FROM the local base image of its runtime (or the official one,
// the Dockerfile's default, with FAIRBENCH_IMAGES=official), tagged by a hash of its tree
// and base so that an unchanged implementation is not rebuilt; then it runs with the
// contract's env on the host network and is ready when GET /health answers 200.
import { createHash } from 'node:crypto';
import { GenericContainer, ImageName, Wait, getContainerRuntimeClient } from 'testcontainers';
import { startContainer, type RunningContainer } from '../containers/container.ts';
import { connectEngine, containerLabels } from '../containers/engine.ts';
import { imageRef, imageSource, imageSpecs, removeSuperseded } from '../containers/images.ts';
import { implTreeHash } from '../fingerprint.ts';
import type { ManagedProcess } from '../process.ts';
import { versionLine } from '../runtime-version.ts';
import { healthAnswers } from './health.ts';
import { imageRoles, type Implementation } from './manifest.ts';
import { RUNTIMES, type RuntimeName } from './runtimes.ts';
import { notReady } from './toolchain.ts';

const BUILD_TIMEOUT_MS = 10 * 60_000;
const HEALTH_TIMEOUT_MS = 60_000;

/** The images.yaml role whose image an implementation's Dockerfile builds FROM (BASE_IMAGE). */
function baseRole(impl: Implementation): string {
  return impl.manifest.runtime.name;
}

/** Null when the implementation can be built as an image here, else why not. */
export function imageUnavailable(impl: Implementation): string | null {
  const unready = notReady(impl);
  if (unready !== null) return unready;
  // Never the default runtime's image in a variant's place.
  if (!impl.variant.isDefault) return `the containers runtime does not run the ${impl.variant.name} variant of ${impl.variant.folder}: ${impl.variant.containersUnsupported ?? 'no image declared'} (run it with RUNTIME=local)`;
  if (imageSource() === 'official') return null;
  for (const role of imageRoles(impl.manifest)) {
    if (!(role in imageSpecs())) return `no local image '${role}' in images/images.yaml (and no registry: FAIRBENCH_IMAGES=local)`;
  }
  return null;
}

async function implImage(impl: Implementation): Promise<{ ref: string; buildArgs: Record<string, string> }> {
  const reason = imageUnavailable(impl);
  if (reason) throw new Error(`${impl.manifest.name}: ${reason}`);
  // With official images the Dockerfile's own default base is the official one.
  const buildImage = impl.manifest.buildImage;
  const buildArgs: Record<string, string> =
    imageSource() === 'local' ? { BASE_IMAGE: imageRef(baseRole(impl)), ...(buildImage !== undefined ? { BUILD_IMAGE: imageRef(buildImage) } : {}) } : {};
  const hash = createHash('sha256')
    .update(await implTreeHash(impl.dir))
    .update(impl.manifest.dockerfile)
    .update(JSON.stringify(buildArgs))
    .digest('hex')
    .slice(0, 12);
  // An image name takes [a-z0-9._-]: a revision's label (express:3f2a1bc04e) is written express-3f2a1bc04e.
  const repository = impl.manifest.name.toLowerCase().replace(/[^a-z0-9._-]/g, '-');
  return { ref: `localhost/fairbench/impl-${repository}:${hash}`, buildArgs };
}

/** Builds the implementation's image unless its tag exists already; returns the tag. */
export async function buildImplementationImage(impl: Implementation): Promise<string> {
  const { ref, buildArgs } = await implImage(impl); // a refusal (a variant, a missing base) before the engine
  const engine = await connectEngine();
  const client = await getContainerRuntimeClient();
  if (await client.image.exists(ImageName.fromString(ref))) return ref;
  // A missing local base would be looked up in a registry named "localhost": say what to run instead.
  for (const base of Object.values(buildArgs)) {
    if (!(await client.image.exists(ImageName.fromString(base)))) throw new Error(`${impl.manifest.name}: its base image ${base} is not built here (make images builds it)`);
  }
  const started = performance.now();
  console.log(`  building image ${ref} from impl/${impl.variant.folder}/${impl.manifest.dockerfile}`);
  const build = GenericContainer.fromDockerfile(impl.dir, impl.manifest.dockerfile)
    .withBuildArgs(buildArgs)
    .withCache(true)
    .build(ref, { deleteOnExit: false });
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`image build of ${impl.manifest.name} took over ${BUILD_TIMEOUT_MS / 60_000} min`)), BUILD_TIMEOUT_MS);
  });
  await Promise.race([build, timeout]).finally(() => clearTimeout(timer));
  console.log(`  built ${ref} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  if (engine === 'podman') await removeSuperseded(ref);
  return ref;
}

export interface StartedImplementationContainer {
  readonly startupMs: number;
  /** The container's main process behind the process interface the harness uses everywhere. */
  readonly process: ManagedProcess;
  readonly container: RunningContainer;
  readonly runtimeVersion: string;
  stop(): Promise<void>;
}

export async function startImplementationContainer(
  impl: Implementation,
  env: Record<string, string>,
  baseUrl: string,
): Promise<StartedImplementationContainer> {
  const ref = await buildImplementationImage(impl);
  const runtimeVersion = await versionInImage(ref, impl.manifest.runtime.name);
  const container = await startContainer({
    role: `impl-${impl.manifest.name}`,
    image: ref,
    env,
    probe: () => healthAnswers(baseUrl),
    readyTimeoutMs: HEALTH_TIMEOUT_MS,
  });
  const process: ManagedProcess = {
    pid: container.pid,
    logFile: container.logFile,
    exited: container.exited.then(() => null),
    stop: () => container.stop(),
    alive: () => container.alive(),
    tail: (lines) => container.tail(lines),
  };
  return { startupMs: container.readyMs, process, container, runtimeVersion, stop: container.stop };
}

const versions = new Map<string, Promise<string>>();

/** The runtime's own version line, from a one-shot container of the image (no exec into a running one). */
function versionInImage(ref: string, runtime: RuntimeName): Promise<string> {
  let version = versions.get(ref);
  if (!version) {
    const [command, ...args] = RUNTIMES[runtime].versionCommand;
    let output = '';
    version = new GenericContainer(ref)
      .withEntrypoint([command])
      .withCommand(args)
      .withLabels(containerLabels('version'))
      .withNetworkMode('host')
      .withLogConsumer((stream) => stream.on('data', (chunk: Buffer | string) => (output += chunk.toString())))
      .withWaitStrategy(Wait.forOneShotStartup())
      .withStartupTimeout(30_000)
      .start()
      .then(async (c) => {
        await c.stop({ remove: true });
        return versionLine(runtime, output);
      });
    versions.set(ref, version);
  }
  return version;
}
