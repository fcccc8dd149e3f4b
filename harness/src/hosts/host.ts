// Where a process runs: this host, a network namespace on this host (the test lab's hosts,
// lab.ts), or another machine over SSH. Every process the harness starts on a host goes
// through `wrap`: the same command line, prefixed by what reaches that host, so the
// database provider, the implementation launcher and the load generators need not know
// where they are.

export type HostVia = 'local' | 'netns' | 'ssh';

/** How to reach a host over SSH; the key file's path comes from an environment variable, never from the repository. */
export interface SshAccess {
  readonly user: string;
  readonly port?: number;
  /** The environment variable holding the private key's path (default FAIRBENCH_SSH_KEY); unset: ssh's own defaults and agent. */
  readonly identityFileEnv?: string;
}

export interface Host {
  /** The topology's name for it. */
  readonly name: string;
  /** The address the other hosts (and the harness) reach it at. */
  readonly address: string;
  readonly via: HostVia;
  /** The network namespace (via netns). */
  readonly netns?: string;
  readonly ssh?: SshAccess;
  /** The cores its processes are pinned to; null: not pinned. */
  readonly cores: readonly number[] | null;
}

/** This machine, on loopback, pinned to `cores` (null: not pinned): where every party runs without a topology. */
export function localHost(cores: readonly number[] | null): Host {
  return { name: 'local', address: '127.0.0.1', via: 'local', cores };
}

/**
 * The command line that runs `command args` on `host`, pinned to its cores. `env` is what
 * the process needs beyond the harness's own environment: a local process and one in a
 * namespace inherit the harness's environment, a process over SSH gets only these. `cwd`
 * is the same path on the host (a shared or identical checkout, docs/several-machines.md).
 */
export function onHost(
  host: Host,
  command: string,
  args: readonly string[],
  opts: { env?: Readonly<Record<string, string>>; cwd?: string } = {},
): [string, string[]] {
  const pinnedLine = host.cores ? ['taskset', '-c', host.cores.join(','), command, ...args] : [command, ...args];
  switch (host.via) {
    case 'local':
      return [pinnedLine[0]!, pinnedLine.slice(1)];
    case 'netns':
      // ip execs the command in the namespace: the pid stays the process's own, so it is sampled and stopped as a local one.
      return ['ip', ['netns', 'exec', host.netns!, ...pinnedLine]];
    case 'ssh': {
      const ssh = host.ssh!;
      const key = process.env[ssh.identityFileEnv ?? 'FAIRBENCH_SSH_KEY'];
      // Hosts must be known: ssh's own known_hosts, or the file FAIRBENCH_SSH_KNOWN_HOSTS names.
      const knownHosts = process.env['FAIRBENCH_SSH_KNOWN_HOSTS'];
      const envPrefix = Object.entries(opts.env ?? {}).map(([k, v]) => `${k}=${shellQuote(v)}`);
      const remote = [
        ...(opts.cwd ? [`cd ${shellQuote(opts.cwd)} &&`] : []),
        'exec',
        ...(envPrefix.length ? ['env', ...envPrefix] : []),
        ...pinnedLine.map(shellQuote),
      ].join(' ');
      // -tt: the remote command gets a terminal, so stopping the ssh client (SIGHUP) stops it too.
      return [
        'ssh',
        [
          '-tt',
          '-o',
          'BatchMode=yes',
          '-o',
          'StrictHostKeyChecking=yes',
          ...(knownHosts ? ['-o', `UserKnownHostsFile=${knownHosts}`] : []),
          ...(key ? ['-i', key] : []),
          '-p',
          String(ssh.port ?? 22),
          `${ssh.user}@${host.address}`,
          remote,
        ],
      ];
    }
  }
}

/** Single-quoted for a POSIX shell. */
export function shellQuote(s: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}
