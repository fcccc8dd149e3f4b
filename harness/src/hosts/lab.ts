// A lab of network hosts on this machine: one network namespace per host, each with its
// own address on a private /24, joined by a bridge in a switch namespace, and a link from
// this namespace (the harness, the "controller") to the same bridge. Traffic between the
// hosts is real TCP over veth pairs, not loopback. Everything is removed by remove(), by
// the process-wide cleanup when the harness stops on a signal or an error, and by
// removeStaleLabs() (make setup) for a harness that was killed outright; a lab made to be
// kept (make lab-up, for TOPOLOGY=) stays until removeKeptLabs() (make lab-down). Each lab
// is recorded on disk while it exists. Needs root and iproute2.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { onCleanup } from '../cleanup.ts';
import { stateDir } from '../paths.ts';
import { harnessAlive, harnessIdentity, readRecords, runCommand } from '../process.ts';
import type { Host } from './host.ts';

/** Every namespace and link a lab makes starts with this: nothing else is ever removed. */
export const LAB_PREFIX = 'fbl';

export interface Lab {
  readonly id: string;
  /** The hosts by name, each in its own namespace. */
  readonly hosts: ReadonlyMap<string, Host>;
  /** This namespace's address on the lab's network: where the hosts see the harness. */
  readonly controllerAddress: string;
  /** The namespaces the lab made (the switch's included). */
  readonly namespaces: readonly string[];
  remove(): Promise<void>;
}

export interface LabHostSpec {
  readonly name: string;
  readonly cores?: readonly number[] | null;
}

const ip = (...args: string[]) => runCommand('ip', args, { timeoutMs: 10_000 });

/** Whether this process can make a lab: root, and iproute2's ip. */
export async function labUnavailable(): Promise<string | undefined> {
  if (process.getuid?.() !== 0) return 'network namespaces need root';
  try {
    await ip('netns', 'list');
    return undefined;
  } catch (error) {
    return `ip netns does not work here: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`;
  }
}

const labsDir = path.join(stateDir, 'labs');

/** What is on disk of a lab while it exists: who made it and what to remove. */
interface LabRecord {
  /** The harness that made it (harnessIdentity: its pid and start time, so a reused pid is not taken for it). */
  readonly owner: string;
  readonly keep: boolean;
  readonly namespaces: readonly string[];
  readonly link: string;
}

/**
 * Makes the lab: hosts named as given (a-z, 0-9, '-'; up to 6 characters), addresses .1, .2, …
 * in order. `keep`: it outlives this process (make lab-up), removed by removeKeptLabs().
 */
export async function createLab(specs: readonly LabHostSpec[], opts: { keep?: boolean } = {}): Promise<Lab> {
  for (const s of specs) if (!/^[a-z0-9-]{1,6}$/.test(s.name)) throw new Error(`lab host name '${s.name}': 1-6 of a-z, 0-9, '-'`);
  const id = randomBytes(2).toString('hex');
  const subnet = await freeSubnet();
  const ns = (name: string) => `${LAB_PREFIX}-${id}-${name}`;
  const switchNs = ns('sw');
  const controllerLink = `${LAB_PREFIX}${id}c`;
  const made: string[] = [];
  const recordFile = path.join(labsDir, `${id}.json`);
  const record = () => {
    fs.mkdirSync(labsDir, { recursive: true });
    const r: LabRecord = { owner: harnessIdentity(), keep: opts.keep === true, namespaces: made, link: controllerLink };
    fs.writeFileSync(recordFile, JSON.stringify(r));
  };
  let removing: Promise<void> | undefined;
  const remove = (): Promise<void> => (removing ??= removeLab(made, controllerLink).then(() => fs.rmSync(recordFile, { force: true })));
  const unregister = onCleanup(`network lab ${id}`, remove);
  try {
    // Recorded before each step: a harness killed half-way leaves a record of what it made.
    record();
    made.push(switchNs);
    await ip('netns', 'add', switchNs);
    await ip('-n', switchNs, 'link', 'set', 'lo', 'up');
    await ip('-n', switchNs, 'link', 'add', 'br0', 'type', 'bridge');
    await ip('-n', switchNs, 'link', 'set', 'br0', 'up');
    const hosts = new Map<string, Host>();
    for (const [i, spec] of specs.entries()) {
      const name = ns(spec.name);
      made.push(name);
      record();
      await ip('netns', 'add', name);
      const port = `p${i}`;
      await ip('link', 'add', 'name', 'eth0', 'netns', name, 'type', 'veth', 'peer', 'name', port, 'netns', switchNs);
      const address = `${subnet}.${i + 1}`;
      await ip('-n', name, 'addr', 'add', `${address}/24`, 'dev', 'eth0');
      await ip('-n', name, 'link', 'set', 'eth0', 'up');
      await ip('-n', name, 'link', 'set', 'lo', 'up');
      await ip('-n', switchNs, 'link', 'set', port, 'master', 'br0', 'up');
      hosts.set(spec.name, { name: spec.name, address, via: 'netns', netns: name, cores: spec.cores ?? null });
    }
    const controllerAddress = `${subnet}.254`;
    await ip('link', 'add', controllerLink, 'type', 'veth', 'peer', 'name', 'pc', 'netns', switchNs);
    await ip('addr', 'add', `${controllerAddress}/24`, 'dev', controllerLink);
    await ip('link', 'set', controllerLink, 'up');
    await ip('-n', switchNs, 'link', 'set', 'pc', 'master', 'br0', 'up');
    if (opts.keep) unregister();
    return {
      id,
      hosts,
      controllerAddress,
      namespaces: [...made],
      remove: async () => {
        unregister();
        await remove();
      },
    };
  } catch (error) {
    unregister();
    await remove();
    throw error;
  }
}

/** Removes the labs whose harness is gone (killed outright), not the kept ones; what it removed. */
export async function removeStaleLabs(): Promise<string[]> {
  return removeRecorded((r) => !r.keep && !harnessAlive(r.owner));
}

/** Removes the labs made to be kept (make lab-down); what it removed. */
export async function removeKeptLabs(): Promise<string[]> {
  return removeRecorded((r) => r.keep);
}

async function removeRecorded(which: (r: LabRecord) => boolean): Promise<string[]> {
  const removed: string[] = [];
  for (const { file, record } of readRecords<LabRecord>(labsDir)) {
    if (!which(record)) continue;
    await removeLab(record.namespaces, record.link);
    fs.rmSync(file, { force: true });
    removed.push(...record.namespaces);
  }
  return removed;
}

/** The lab namespaces and links present now (of any lab: a killed harness's too). */
export async function labLeftovers(): Promise<string[]> {
  const { stdout: namespaces } = await ip('netns', 'list');
  const { stdout: links } = await ip('-o', 'link', 'show');
  return [
    ...namespaces
      .split('\n')
      .map((l) => l.split(' ')[0] ?? '')
      .filter((n) => n.startsWith(`${LAB_PREFIX}-`)),
    ...links
      .split('\n')
      .map((l) => l.split(': ')[1]?.split('@')[0] ?? '')
      .filter((n) => new RegExp(`^${LAB_PREFIX}[0-9a-f]{4}c$`).test(n)),
  ];
}

async function removeLab(namespaces: readonly string[], ...links: string[]): Promise<void> {
  const failures: string[] = [];
  // Deleting a namespace deletes its ends of the veth pairs, and with them their peers, but the kernel
  // may take a moment: the controller's link is deleted explicitly.
  for (const link of links) await ip('link', 'del', link).catch((e: unknown) => (/Cannot find device/.test(String(e)) ? undefined : failures.push(String(e))));
  for (const name of [...namespaces].reverse())
    await ip('netns', 'del', name).catch((e: unknown) => (/No such file/.test(String(e)) ? undefined : failures.push(String(e))));
  if (failures.length) throw new Error(`removing the network lab: ${failures.join('; ')}`);
}

/** A 10.x.y.0/24 no route of this machine covers yet. */
async function freeSubnet(): Promise<string> {
  const { stdout } = await ip('-4', 'route', 'show', 'table', 'all');
  for (let attempt = 0; attempt < 50; attempt++) {
    const candidate = `10.${200 + (randomBytes(1)[0]! % 50)}.${randomBytes(1)[0]!}`;
    if (!stdout.includes(`${candidate}.`)) return candidate;
  }
  throw new Error('no free 10.x.y.0/24 for the network lab');
}
