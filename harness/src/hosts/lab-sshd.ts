// An OpenSSH server inside one host of a network lab (lab.ts), so that the lab has a host the
// harness reaches over SSH, as it reaches a topology's hosts on other machines. Its keys are
// made for it and thrown away with it: a host key the client is told to trust
// (known_hosts), and a client key only it accepts. It listens on the host's address only.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { onCleanup } from '../cleanup.ts';
import { cacheDir } from '../paths.ts';
import { runCommand, startProcess } from '../process.ts';
import type { Host } from './host.ts';

export interface LabSshd {
  /** The private key the server accepts, and the known_hosts file that names its host key. */
  readonly identityFile: string;
  readonly knownHostsFile: string;
  stop(): Promise<void>;
}

/** Debian's sshd unpacked by make setup, or the system's. */
export async function sshdBinary(): Promise<string | undefined> {
  for (const candidate of [path.join(cacheDir, 'sshd', 'usr', 'sbin', 'sshd'), '/usr/sbin/sshd']) {
    try {
      await fs.access(candidate, fs.constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** Starts sshd in `host`'s namespace, port 22 of its address; root may log in with the made key only. */
export async function startLabSshd(host: Host): Promise<LabSshd> {
  if (host.via !== 'netns') throw new Error('a lab sshd runs in a lab host (a network namespace)');
  const sshd = await sshdBinary();
  if (!sshd) throw new Error('no sshd: make setup unpacks one into .cache/sshd');
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'fairbench-lab-sshd-'));
  const removeDir = () => fs.rm(dir, { recursive: true, force: true });
  const unregisterDir = onCleanup(`lab sshd dir ${dir}`, removeDir);
  const key = (name: string) => runCommand('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', `fairbench-lab-${name}`, '-f', path.join(dir, name)]);
  await key('host');
  await key('client');
  await fs.copyFile(path.join(dir, 'client.pub'), path.join(dir, 'authorized_keys'));
  const hostKey = (await fs.readFile(path.join(dir, 'host.pub'), 'utf8')).split(' ').slice(0, 2).join(' ');
  await fs.writeFile(path.join(dir, 'known_hosts'), `${host.address} ${hostKey}\n`);
  await fs.writeFile(
    path.join(dir, 'sshd_config'),
    [
      `ListenAddress ${host.address}`,
      `HostKey ${path.join(dir, 'host')}`,
      `AuthorizedKeysFile ${path.join(dir, 'authorized_keys')}`,
      `PidFile ${path.join(dir, 'sshd.pid')}`,
      'PermitRootLogin prohibit-password',
      'PasswordAuthentication no',
      'KbdInteractiveAuthentication no',
      'UsePAM no',
      // The keys live in a temp dir, not a home: sshd's ownership checks of ~/.ssh do not apply.
      'StrictModes no',
      'PrintMotd no',
      '',
    ].join('\n'),
  );
  await fs.mkdir('/run/sshd', { recursive: true }); // its privilege separation directory
  const server = startProcess({
    name: `sshd ${host.name}`,
    command: sshd,
    args: ['-D', '-e', '-f', path.join(dir, 'sshd_config')],
    host: { ...host, cores: null },
    logFile: path.join(dir, 'sshd.log'),
  });
  const stop = async () => {
    await server.stop();
    unregisterDir();
    await removeDir();
  };
  // Ready once it answers with its banner on port 22.
  const deadline = Date.now() + 10_000;
  for (;;) {
    const banner = await runCommand(
      'ip',
      ['netns', 'exec', host.netns!, 'bash', '-c', `exec 3<>/dev/tcp/${host.address}/22 2>/dev/null || exit 1; head -c 7 <&3`],
      { timeoutMs: 2_000 },
    ).catch(() => undefined);
    if (banner?.stdout.startsWith('SSH-')) break;
    if (!server.alive() || Date.now() > deadline) {
      const log = await server.tail(10);
      await stop();
      throw new Error(`sshd in ${host.name} did not answer:\n${log}`);
    }
    await sleep(50);
  }
  return { identityFile: path.join(dir, 'client'), knownHostsFile: path.join(dir, 'known_hosts'), stop };
}
