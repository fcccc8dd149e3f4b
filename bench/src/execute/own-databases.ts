// Each implementation's own database (options.ownDatabases): where a comparison's load writes
// and switches slices, the two implementations cannot share one database — a slice would
// start from the other's writes — and a reset between slices would break the load. So the
// second implementation gets a database of its own on the same server (the same engine,
// process, caches and cores), seeded with the same rows: its fingerprint must equal the
// first's. The first implementation keeps the run's database, which the database-alone
// cases use too.
import { seed, type Seeded } from '@fairbench/harness/api/dataset.ts';
import { DEFAULT_DATABASE, type DatabaseServer } from '@fairbench/harness/provision/index.ts';
import { siblingDatabase } from '@fairbench/harness/provision/sibling.ts';
import type { PlannedCase, Prepared } from '../plan/api-module.ts';
import type { BenchApi } from '../plan/apis.ts';
import type { RunDatabases } from './parties.ts';

/** One implementation's data: its databases (for its environment), the seed it resets to, the API's module bound to them. */
export interface ImplementationData {
  readonly servers: readonly DatabaseServer[];
  readonly seeded: Seeded<unknown>;
  readonly prepared: Prepared<PlannedCase>;
}

/** The run's data for `names[0]`, and for each other implementation the same rows in databases of its own. */
export async function ownDatabases(
  api: BenchApi,
  databases: RunDatabases,
  first: Omit<ImplementationData, 'servers'>,
  names: readonly string[],
): Promise<Map<string, ImplementationData>> {
  const own = new Map<string, ImplementationData>([[names[0]!, { servers: databases.servers, ...first }]]);
  for (const [k, name] of names.entries()) {
    if (k === 0) continue;
    const servers = await Promise.all(databases.servers.map((server) => siblingDatabase(server, `${DEFAULT_DATABASE}_${k + 1}`)));
    const byKind = new Map(servers.map((s) => [s.kind, s]));
    const seeded = await seed(api, 'paper', byKind);
    if (seeded.info.fingerprint !== first.seeded.info.fingerprint)
      throw new Error(`${name}'s database was seeded with other rows than ${names[0]}'s (${seeded.info.fingerprint} against ${first.seeded.info.fingerprint})`);
    console.log(
      `seeded ${name}'s own database (${servers.map((s) => new URL(s.url).pathname.slice(1)).join(', ')}): the same rows in ${seeded.info.loadMs} ms`,
    );
    own.set(name, { servers, seeded, prepared: await api.module.prepare(seeded, byKind) });
  }
  return own;
}
