// What a host of a topology is: read on the host itself (over the same transport its
// processes use) before a run, recorded in the result, and compared with what the
// topology file says it must be: a run on other machines than the file names is refused.
import { runCommand } from '@fairbench/harness/process.ts';
import { onHost, type Host } from '@fairbench/harness/hosts/host.ts';

export interface MachineDescription {
  readonly hostname: string;
  readonly cpuModel: string;
  readonly cores: number;
  readonly memoryBytes: number;
  readonly kernel: string;
  /** The IPv4 addresses of its interfaces. */
  readonly addresses: readonly string[];
}

/** What the topology file may require of a host (every field optional). */
export type ExpectedMachine = Partial<Omit<MachineDescription, 'addresses'>>;

// One shell line, standard tools only: a remote host needs nothing of ours to be described.
const PROBE = [
  'hostname',
  'nproc --all',
  "grep -m1 '^model name' /proc/cpuinfo | cut -d: -f2- || echo unknown",
  "grep '^MemTotal:' /proc/meminfo | tr -s ' ' | cut -d' ' -f2",
  'uname -r',
  "ip -o -4 addr show | tr -s ' ' | cut -d' ' -f4 | cut -d/ -f1 | tr '\\n' ' '",
].join('; ');

export async function describeMachine(host: Host): Promise<MachineDescription> {
  // Unpinned: the description is of the machine, not of the host's cores.
  const [command, args] = onHost({ ...host, cores: null }, 'sh', ['-c', PROBE]);
  const { stdout } = await runCommand(command, args, { timeoutMs: 20_000 });
  return parseDescription(stdout);
}

export function parseDescription(stdout: string): MachineDescription {
  const [hostname, cores, cpuModel, memKiB, kernel, addresses] = stdout.replace(/\r/g, '').split('\n');
  if (addresses === undefined) throw new Error(`the machine probe printed too little: ${stdout.trim()}`);
  return {
    hostname: hostname!.trim(),
    cpuModel: cpuModel!.trim(),
    cores: Number(cores),
    memoryBytes: Number(memKiB) * 1024,
    kernel: kernel!.trim(),
    addresses: addresses.trim().split(/\s+/).filter(Boolean),
  };
}

/** How `actual` differs from what the file expects of host `host` (its address included); empty when it does not. */
export function differences(host: Host, expected: ExpectedMachine | undefined, actual: MachineDescription): string[] {
  const out: string[] = [];
  if (!actual.addresses.includes(host.address)) out.push(`address ${host.address} is not one of the host's (${actual.addresses.join(', ') || 'none'})`);
  for (const [key, want] of Object.entries(expected ?? {}) as [keyof ExpectedMachine, string | number][]) {
    const got = actual[key];
    const same = key === 'memoryBytes' ? Math.abs(Number(got) - Number(want)) <= 0.01 * Number(want) : got === want;
    if (!same) out.push(`${key} is ${JSON.stringify(got)}, the topology says ${JSON.stringify(want)}`);
  }
  if (host.cores && Math.max(...host.cores) >= actual.cores) out.push(`cores ${host.cores.join(',')} asked, the machine has ${actual.cores}`);
  return out;
}
