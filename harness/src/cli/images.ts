// make images [IMAGES=a,b]: builds the containers runtime's local base images (images/images.yaml)
// that do not exist yet, and prints each one's tag, build time and size.
import { runMain } from './main.ts';
import { buildLocalImages } from '../containers/images.ts';

const names = process.argv.slice(2).flatMap((a) => a.split(',')).filter(Boolean);

await runMain('images', async () => {
  const started = performance.now();
  const reports = await buildLocalImages(names.length > 0 ? names : undefined);
  for (const r of reports) {
    const built = r.buildMs === null ? 'cached' : `built in ${(r.buildMs / 1000).toFixed(1)} s`;
    console.log(`  ${r.name.padEnd(11)} ${r.ref.padEnd(44)} ${(r.sizeBytes / 1e6).toFixed(0).padStart(5)} MB  ${built}`);
  }
  console.log(`images: ready in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return true;
});
