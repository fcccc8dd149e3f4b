// The topology file of a network lab on this machine (harness/src/hosts/lab.ts): the
// database and the implementation on the server side's cores, each generator on the rest,
// as on one machine (placement.ts), but every party on its own host with its own address.
// Each host's machine is written as the probe read it, so the run checks it like any other.
import os from 'node:os';
import { stringify } from 'yaml';
import type { LabHostSpec, Lab } from '@fairbench/harness/hosts/lab.ts';
import { choosePlacement } from '../../load/placement.ts';
import { describeMachine } from './machine.ts';
import type { TopologyFile } from './topology.ts';

/** The lab's hosts: db, app and `generators` load generators (gen-a, gen-b, …), pinned as on one machine. */
export function labHosts(generators: number): LabHostSpec[] {
  const placement = choosePlacement(true, os.availableParallelism());
  return [
    { name: 'db', cores: placement.database },
    { name: 'app', cores: placement.implementation },
    ...Array.from({ length: generators }, (_, i) => ({ name: `gen-${String.fromCharCode(97 + i)}`, cores: placement.generator })),
  ];
}

/** The topology file's data for `lab`: every gen-* host a generator. */
export async function labTopology(lab: Lab): Promise<TopologyFile> {
  const hosts: TopologyFile['hosts'] = {};
  for (const host of lab.hosts.values()) {
    const { hostname, cpuModel, cores, memoryBytes, kernel } = await describeMachine(host);
    hosts[host.name] = {
      address: host.address,
      via: 'netns',
      netns: host.netns!,
      ...(host.cores ? { cores: [...host.cores] } : {}),
      machine: { hostname, cpuModel, cores, memoryBytes, kernel },
    };
  }
  return {
    controller: { address: lab.controllerAddress },
    hosts,
    roles: { database: 'db', implementation: 'app', generators: [...lab.hosts.keys()].filter((n) => n.startsWith('gen-')) },
  };
}

export function topologyYaml(t: TopologyFile, comment: string): string {
  return `${comment
    .split('\n')
    .map((l) => `# ${l}`.trimEnd())
    .join('\n')}\n${stringify(t)}`;
}
