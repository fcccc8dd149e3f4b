// make images [IMAGES=a,b]: builds the containers runtime's local base images (images/images.yaml)
// that do not exist yet, and prints each one's tag, build time and size.
// --if-possible (make test): only the images the run needs; where no container engine works (a sandboxed CI, a machine
// without Podman) or a build fails, say so loudly and exit 0: the run then goes local.
import { runMain } from './main.ts';
import { notAccepted, parseCli } from './usage.ts';
import { probeEngine, probeRun } from '../containers/engine.ts';
import { buildLocalImages, imageSource, imageSpecs, localRef } from '../containers/images.ts';
import { imageRoles, loadImplementations } from '../impl/manifest.ts';
import { DATABASE_IMAGES } from '../provision/index.ts';

const warn = (text: string): void => console.log(`\x1b[33m!! images: ${text}\x1b[0m`);

/**
 * What make test starts: the database images and every image an implementation's is built
 * from, its build stage included (spring's JDK and Maven), without which that image cannot be
 * built on a machine that never ran `make images`.
 */
async function neededImages(): Promise<string[]> {
  const roles = (await loadImplementations()).flatMap((i) => imageRoles(i.manifest));
  return [...DATABASE_IMAGES, ...new Set(roles.filter((r) => r in imageSpecs()))];
}

await runMain('images', async () => {
  const { values, positionals } = parseCli({ options: { 'if-possible': { type: 'boolean' } }, allowPositionals: true });
  const names = positionals.flatMap((a) => a.split(',')).filter(Boolean);
  const unknown = names.find((n) => !(n in imageSpecs()));
  if (unknown !== undefined) throw notAccepted('IMAGES', unknown, Object.keys(imageSpecs()));
  if (imageSource() === 'official') {
    console.log('images: FAIRBENCH_IMAGES=official, the registry images are used: nothing to build');
    return true;
  }
  if (values['if-possible']) {
    if (process.env['FAIRBENCH_RUNTIME'] === 'local') return true;
    const engine = probeEngine();
    if (!engine.ok || engine.kind !== 'podman') {
      warn(`not built, the containers runtime will not be used: ${engine.ok ? `${engine.detail} (local images are built with podman)` : engine.reason}`);
      return true;
    }
  }
  const started = performance.now();
  let reports;
  let rootReports: Awaited<ReturnType<typeof buildLocalImages>> = [];
  try {
    if (values['if-possible']) {
      // Before minutes of builds: can a container start here at all (bounded)? The root image suffices.
      const root = Object.keys(imageSpecs()).find((n) => imageSpecs()[n]?.debootstrap !== undefined);
      if (root) {
        rootReports = await buildLocalImages([root]);
        const run = probeRun(localRef(root));
        if (!run.ok) {
          warn(`not built, the containers runtime will not be used: ${run.reason}`);
          return true;
        }
      }
    }
    reports = await buildLocalImages(names.length > 0 ? names : values['if-possible'] ? await neededImages() : undefined);
  } catch (error) {
    if (!values['if-possible']) throw error;
    warn(`build failed, the containers runtime will not be used: ${error instanceof Error ? error.message : String(error)}`);
    return true;
  }
  // The root image built by the check above shows as built, not as cached.
  reports = reports.map((r) => rootReports.find((b) => b.name === r.name && b.buildMs !== null) ?? r);
  for (const r of reports) {
    const built = r.buildMs === null ? 'cached' : `built in ${(r.buildMs / 1000).toFixed(1)} s`;
    console.log(`  ${r.name.padEnd(13)} ${r.ref.padEnd(46)} ${(r.sizeBytes / 1e6).toFixed(0).padStart(5)} MB  ${built}`);
  }
  console.log(`images: ready in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return true;
});
