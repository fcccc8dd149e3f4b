// Where the run's parties run and how they start: the database servers (each placed on
// the database's cores or host, the first one sampled), the implementation (on its cores,
// in a container, or on a topology's host), the generators (placement, or a topology's
// hosts); and whether every implementation can run here at all.
import { seed, type Seeded } from '@fairbench/harness/api/dataset.ts';
import { imageUnavailable } from '@fairbench/harness/impl/container.ts';
import { startImplementation, type RunningImplementation } from '@fairbench/harness/impl/launch.ts';
import type { Implementation } from '@fairbench/harness/impl/manifest.ts';
import { missingToolchain } from '@fairbench/harness/impl/toolchain.ts';
import { CannotRun } from '@fairbench/harness/cli/usage.ts';
import type { Host } from '@fairbench/harness/hosts/host.ts';
import { chooseProvider, type DatabaseProvider, type DatabaseServer, type RuntimeProviderName } from '@fairbench/harness/provision/index.ts';
import type { LocalDatabaseServer } from '@fairbench/harness/provision/local/index.ts';
import { UsageError } from '../load/failure.ts';
import { choosePlacement, listenerPid, pinProcess, type Placement } from '../load/placement.ts';
import { distinctOriginals, originalOf } from '../record/copies.ts';
import type { BenchApi } from '../plan/apis.ts';
import type { ResolvedOptions } from '../plan/options.ts';
import { loadTopology, placementOf, type Topology } from './topology/topology.ts';

/** Where the run's parties run: the runtime of the databases, the cores, the hosts of a topology. */
export interface Where {
  readonly provider: DatabaseProvider;
  readonly placement: Placement;
  /** Where each party runs (TOPOLOGY); undefined: on this host, as `placement` pins them. */
  readonly topology: Topology | undefined;
  /** CROSSCHECK=wrk: the closed-model cases measured by wrk too. */
  readonly crossCheck: boolean;
}

/** The runtime, the topology (its hosts probed, and a run on other machines than the file names refused) or the cores here, the cross-check. */
export async function chooseWhere(opts: ResolvedOptions): Promise<Where> {
  // Local processes unless FAIRBENCH_RUNTIME=containers: on one small machine the runtime adds no noise of its own.
  const provider = chooseProvider({ default: 'local' });
  if (opts.topology && provider.name !== 'local')
    throw new UsageError('TOPOLOGY places local processes on its hosts: it cannot be given with RUNTIME=containers');
  if (opts.topology && opts.crossCheck) throw new UsageError('CROSSCHECK=wrk runs wrk on this host: it cannot be given with TOPOLOGY');
  const topology = opts.topology ? await loadTopology(opts.topology) : undefined;
  const placement = topology ? placementOf(topology) : choosePlacement(opts.pin);
  return { provider, placement, topology, crossCheck: opts.crossCheck !== undefined };
}

/** Each implementation's toolchain (and, in containers, its image) is here: else CannotRun. */
export async function checkCanRun(impls: readonly Implementation[], provider: DatabaseProvider): Promise<void> {
  for (const impl of distinctOriginals(impls)) {
    const missing = (await missingToolchain(impl)) ?? (provider.name === 'containers' ? imageUnavailable(impl) : null);
    if (missing) throw new CannotRun(`${impl.manifest.name} cannot run here: ${missing}`);
  }
}

/** The API's databases, started and placed; the first kind the manifest names is the one sampled and recorded (every API here has one). */
export interface RunDatabases {
  readonly servers: readonly DatabaseServer[];
  readonly byKind: Map<DatabaseServer['kind'], DatabaseServer>;
  readonly db: DatabaseServer;
  /** The sampled database's pid, if its process is visible here. */
  readonly pid: number | undefined;
  /** The placement as recorded: the database's cores only where it was pinned. */
  readonly recordedPlacement: Placement;
}

export async function startDatabases(api: BenchApi, { provider, placement, topology }: Where): Promise<RunDatabases> {
  // On a topology's database host, the server lets in the harness and the other hosts only.
  const onHosts = topology
    ? { host: topology.database, clients: [topology.controllerAddress, topology.implementation.address, ...topology.generators.map((g) => g.address)] }
    : {};
  const servers = await Promise.all(api.manifest.databases.map((kind) => provider.start(kind, onHosts)));
  const byKind = new Map(servers.map((d) => [d.kind, d]));
  const db = servers[0]!;
  const place = (d: DatabaseServer) => (topology ? placedOnHost(d, topology.database) : placeDatabase(d, placement));
  for (const other of servers.slice(1)) await place(other);
  const database = await place(db);
  const recordedPlacement: Placement = { ...placement, database: database.pinned ? placement.database : null };
  console.log(`database: ${db.engine.name} ${db.engine.version} (${db.provider})${database.pinned ? ` pinned to core ${placement.database?.join(',')}` : ''}`);
  return { servers, byKind, db, pid: database.pid, recordedPlacement };
}

/** The API's databases seeded with the paper's data by its dataset module. */
export async function seedPaper(api: BenchApi, databases: RunDatabases): Promise<Seeded<unknown>> {
  const seeded = await seed(api, 'paper', databases.byKind);
  const rows = Object.entries(seeded.info.rows).map(([t, n]) => `${n} ${t}`);
  console.log(`seeded ${api.name}: ${rows.join(', ')} in ${seeded.info.loadMs} ms`);
  return seeded;
}

/** Starts an implementation where the run places it: a topology's host, or this host's cores. */
export function startServer(
  impl: Implementation,
  env: (port: number) => Record<string, string>,
  runtime: RuntimeProviderName,
  { placement, topology }: Where,
): Promise<RunningImplementation> {
  return topology ? startImplementation(impl, env, { runtime, host: topology.implementation }) : startOnCores(impl, env, runtime, placement.implementation);
}

/**
 * Starts the implementation on its cores: a local process under taskset; a container (host
 * network, its processes visible in the host's /proc) is pinned once it runs.
 */
async function startOnCores(
  impl: Implementation,
  env: (port: number) => Record<string, string>,
  runtime: RuntimeProviderName,
  cpus: readonly number[] | null,
): Promise<RunningImplementation> {
  if (runtime === 'local') return startImplementation(impl, env, { runtime, ...(cpus ? { cpus } : {}) });
  // A copy of an A/A run runs from the implementation's own image.
  const server = await startImplementation(originalOf(impl), env, { runtime });
  if (cpus) await pinProcess(server.process.pid, cpus);
  return server;
}

/** A database started on a topology's host: its process (in another network namespace, so not found by its port) was pinned by the host's cores. */
function placedOnHost(db: DatabaseServer, host: Host): { pid: number | undefined; pinned: boolean } {
  const pid = 'process' in db ? (db as LocalDatabaseServer).process.pid : undefined;
  return { pid, pinned: host.cores !== null };
}

/** Finds the database server's process (to sample it) and pins it to the server side's cores. */
async function placeDatabase(db: DatabaseServer, placement: Placement): Promise<{ pid: number | undefined; pinned: boolean }> {
  const pid = listenerPid(Number(new URL(db.url).port));
  if (pid === undefined) {
    console.log('database: its process is not visible here: neither sampled nor pinned');
    return { pid, pinned: false };
  }
  if (!placement.database) return { pid, pinned: false };
  try {
    await pinProcess(pid, placement.database);
    return { pid, pinned: true };
  } catch (error) {
    console.log(`database: could not pin pid ${pid}: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
    return { pid, pinned: false };
  }
}
