// make lab-up → a network lab on this machine for TOPOLOGY= (docs/several-machines.md): the
// database, the implementation and GENERATORS load generators (default 2) each in its own
// network namespace with its own address, and its topology file written where it prints.
// The lab stays until make lab-down. Needs root and iproute2.
// make lab-down → removes every lab make lab-up made.
import { mkdir, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { runMain } from '@fairbench/harness/cli/main.ts';
import { parseCli } from '@fairbench/harness/cli/usage.ts';
import { createLab, labUnavailable, removeKeptLabs } from '@fairbench/harness/hosts/lab.ts';
import { repoRoot, resultsDir } from '@fairbench/harness/paths.ts';
import { UsageError } from '../load/failure.ts';
import { labHosts, labTopology, topologyYaml } from '../execute/topology/lab-topology.ts';

await runMain('lab', async () => {
  const { values, positionals } = parseCli({ allowPositionals: true, options: { generators: { type: 'string' } } });
  const verb = positionals[0];
  if (verb === 'down') {
    const removed = await removeKeptLabs();
    console.log(removed.length ? `removed ${removed.join(', ')}` : 'no lab to remove');
    return true;
  }
  if (verb !== 'up') throw new UsageError('lab.ts up|down');
  const unavailable = await labUnavailable();
  if (unavailable) throw new UsageError(`a network lab cannot be made here: ${unavailable}`);
  const generators = Number(values.generators ?? 2);
  if (!Number.isInteger(generators) || generators < 1 || generators > 8) throw new UsageError(`GENERATORS must be 1 to 8, got '${values.generators}'`);
  const lab = await createLab(labHosts(generators), { keep: true });
  const file = join(resultsDir, 'lab', 'topology.yaml');
  await mkdir(join(resultsDir, 'lab'), { recursive: true });
  await writeFile(file, topologyYaml(await labTopology(lab), `The network lab ${lab.id} on this machine (make lab-up); make lab-down removes it.`));
  for (const h of lab.hosts.values())
    console.log(`  ${h.name.padEnd(6)} ${h.address.padEnd(15)} netns ${h.netns}${h.cores ? `, core ${h.cores.join(',')}` : ''}`);
  console.log(
    `  harness ${lab.controllerAddress}\ntopology: ${relative(repoRoot, file)}  (make bench IMPL=express API=forum QUICK=1 TOPOLOGY=${relative(repoRoot, file)})`,
  );
  return true;
});
