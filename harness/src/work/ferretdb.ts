// FerretDB's work counters: the commands it handled, by name (serverStatus metrics.commands,
// the same counts as its Prometheus endpoint's ferretdb_client_requests_total). FerretDB 1.24
// counts commands for the whole server, not per database: its only per-database work count,
// ferretdb_cursors_created_total{db}, is on the /debug/metrics endpoint that the provisioner
// switches off (--debug-addr=-). Rows or documents read and written are not counted at all.
// So every counter here is server-wide: it is this database's work only while nothing else
// works on the server.
import { MongoClient } from 'mongodb';
import type { WorkCounter, WorkReader } from './counters.ts';

// A request may read or write through more than one command (findOne is a find, a mongoose
// findOneAndReplace a findAndModify, another driver's an update): the sums are what a model counts.
const READS = ['find', 'getMore', 'aggregate', 'count', 'distinct'];
const WRITES = ['insert', 'update', 'delete', 'findAndModify'];
/** Commands a model may name: always in a reading (0 before their first use), so that a difference has them. */
const COMMANDS = [...READS, ...WRITES, 'serverStatus'];

export async function ferretdbWorkReader(url: string, engine: string): Promise<WorkReader> {
  const database = decodeURIComponent(new URL(url).pathname.slice(1));
  // One connection, no heartbeat in the window's counts beyond its own monitor's hello.
  const client = new MongoClient(url, { directConnection: true, maxPoolSize: 1 });
  await client.connect();
  return {
    async snapshot() {
      const readFrom = Date.now();
      const status = await client.db('admin').command({ serverStatus: 1 });
      const handled = (status['metrics'] as { commands?: Record<string, { total?: number; failed?: number }> } | undefined)?.commands;
      if (!handled) throw new Error(`work counters: ${engine}'s serverStatus has no metrics.commands`);
      const counters: Record<string, WorkCounter> = {};
      for (const name of new Set([...COMMANDS, ...Object.keys(handled)])) {
        counters[`commands.${name}`] = { value: Number(handled[name]?.total ?? 0), scope: 'server' };
        counters[`commands.${name}.failed`] = { value: Number(handled[name]?.failed ?? 0), scope: 'server' };
      }
      const sum = (names: readonly string[]) => names.reduce((n, name) => n + (counters[`commands.${name}`]?.value ?? 0), 0);
      counters['commands.read'] = { value: sum(READS), scope: 'server' };
      counters['commands.write'] = { value: sum(WRITES), scope: 'server' };
      // The reading's own serverStatus is counted once answered: in the next reading.
      return { engine, database, readFrom, at: Date.now(), counters, unavailable: {}, readerCost: { 'commands.serverStatus': 1 } };
    },
    close: () => client.close(),
  };
}
