// Prints the conformance matrix (one JSON line) of every impl/*/impl.yaml: the GitHub
// workflow's first job writes it to its outputs and the conformance job's strategy reads
// it with fromJSON. Run it locally to see which jobs CI will start.
import { loadImplementations } from '../impl/manifest.ts';
import { conformanceMatrix } from '../impl/matrix.ts';
import { runMain } from './main.ts';

await runMain('impl-matrix', async () => {
  const matrix = conformanceMatrix(await loadImplementations());
  if (matrix.include.length === 0) throw new Error('no impl/*/impl.yaml found: the matrix would be empty');
  process.stdout.write(`${JSON.stringify(matrix)}\n`);
  return true;
});
