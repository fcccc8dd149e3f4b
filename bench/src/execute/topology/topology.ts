// A run's topology: which host runs the database, the implementation and each load
// generator. Without a topology file every party runs on this host with pinned cores
// (bench/src/load/placement.ts); with one (TOPOLOGY=<file>, schema bench/schemas/topology.schema.json)
// they run where it says, every host is described by a probe on the host itself, and a
// host that differs from the file refuses the run before anything starts.
import type { Host } from '@fairbench/harness/hosts/host.ts';
import topologySchema from '../../../schemas/topology.schema.json' with { type: 'json' };
import { UsageError } from '../../load/failure.ts';
import type { Placement } from '../../load/placement.ts';
import type { RecordedTopology } from '../../record/result-document.ts';
import { loadYaml } from '../../yaml.ts';
import { describeMachine, differences, type ExpectedMachine, type MachineDescription } from './machine.ts';

export interface TopologyFile {
  readonly controller: { readonly address: string };
  readonly hosts: Record<string, { address: string; via: 'netns' | 'ssh'; netns?: string; ssh?: Host['ssh']; cores?: number[]; machine?: ExpectedMachine }>;
  readonly roles: { readonly database: string; readonly implementation: string; readonly generators: readonly string[] };
}

export type Role = 'database' | 'implementation' | 'generator';

/** A host of the run, as recorded in the result. */
export interface TopologyHost {
  readonly host: Host;
  readonly roles: readonly Role[];
  readonly machine: MachineDescription;
}

export interface Topology {
  /** The file it came from. */
  readonly file: string;
  readonly controllerAddress: string;
  readonly database: Host;
  readonly implementation: Host;
  readonly generators: readonly Host[];
  /** Every host once, with its roles and its probed description. */
  readonly hosts: readonly TopologyHost[];
}

/** Reads and checks the file, probes every host it names, and refuses the run when one differs. */
export async function loadTopology(file: string): Promise<Topology> {
  let data: TopologyFile;
  try {
    data = (await loadYaml<TopologyFile>(file, topologySchema)).data;
  } catch (error) {
    throw new UsageError(`TOPOLOGY: ${error instanceof Error ? error.message : String(error)}`);
  }
  const hostOf = (name: string): Host => {
    const h = data.hosts[name];
    if (!h) throw new UsageError(`TOPOLOGY ${file}: the roles name host '${name}', which is not under hosts (${Object.keys(data.hosts).join(', ')})`);
    return { name, address: h.address, via: h.via, ...(h.netns ? { netns: h.netns } : {}), ...(h.ssh ? { ssh: h.ssh } : {}), cores: h.cores ?? null };
  };
  const database = hostOf(data.roles.database);
  const implementation = hostOf(data.roles.implementation);
  const generators = data.roles.generators.map(hostOf);
  const roles = new Map<string, Role[]>();
  const add = (h: Host, role: Role) => roles.set(h.name, [...(roles.get(h.name) ?? []), role]);
  add(database, 'database');
  add(implementation, 'implementation');
  for (const g of generators) add(g, 'generator');
  const hosts: TopologyHost[] = [];
  const refusals: string[] = [];
  for (const [name, hostRoles] of roles) {
    const host = hostOf(name);
    let machine: MachineDescription;
    try {
      machine = await describeMachine(host);
    } catch (error) {
      refusals.push(`${name} (${host.address} via ${host.via}): cannot be reached: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
      continue;
    }
    for (const d of differences(host, data.hosts[name]!.machine, machine)) refusals.push(`${name} (${host.address}): ${d}`);
    hosts.push({ host, roles: hostRoles, machine });
  }
  if (refusals.length > 0) throw new UsageError(`TOPOLOGY ${file}: the hosts are not what the file says, so the run is refused:\n  ${refusals.join('\n  ')}`);
  return { file, controllerAddress: data.controller.address, database, implementation, generators, hosts };
}

/** The cores each party is pinned to, for the result's placement (null where not pinned). */
export function placementOf(t: Pick<Topology, 'database' | 'implementation' | 'generators'>): Placement {
  const generator = [...new Set(t.generators.flatMap((g) => g.cores ?? []))];
  return {
    implementation: t.implementation.cores ? [...t.implementation.cores] : null,
    database: t.database.cores ? [...t.database.cores] : null,
    generator: generator.length ? generator : null,
  };
}

/** The topology as the result records it. */
export function recordedTopology(t: Topology): RecordedTopology {
  return {
    file: t.file,
    controllerAddress: t.controllerAddress,
    hosts: t.hosts.map(({ host, roles, machine }) => ({
      name: host.name,
      roles: [...roles],
      address: host.address,
      via: host.via === 'ssh' ? 'ssh' : 'netns',
      cores: host.cores ? [...host.cores] : null,
      machine: { ...machine, addresses: [...machine.addresses] },
    })),
  };
}
