// MariaDB's work counters. Per database: INFORMATION_SCHEMA.TABLE_STATISTICS (rows read,
// rows changed, summed over the schema's tables), which MariaDB fills only with `userstat`
// on (the local provisioner starts every server with it). Server-wide: the statement
// counters (Com_*) and the storage engine's calls (Handler_*) of SHOW GLOBAL STATUS.
import mysql from 'mysql2/promise';
import type { RowDataPacket } from 'mysql2/promise';
import type { WorkCounter, WorkReader } from './counters.ts';

/** The statements a model may count; Com_stmt_* and the rest count protocol steps, not work. */
const STATEMENTS = [
  'Com_select',
  'Com_insert',
  'Com_insert_select',
  'Com_update',
  'Com_update_multi',
  'Com_delete',
  'Com_delete_multi',
  'Com_replace',
  'Com_begin',
  'Com_commit',
  'Com_rollback',
];
// The reader's own statements move these by amounts that vary (its temporary tables): left out.
const READER_NOISE = new Set(['Handler_tmp_write', 'Handler_tmp_update', 'Handler_tmp_delete', 'Handler_read_rnd_next', 'Handler_read_rnd']);
const TABLE_COUNTERS = ['rows_read', 'rows_changed', 'rows_changed_x_indexes'] as const;

export async function mariadbWorkReader(url: string, engine: string): Promise<WorkReader> {
  const database = decodeURIComponent(new URL(url).pathname.slice(1));
  const conn = await mysql.createConnection(url);
  // A connection lost mid-run fails the next snapshot, which the sampler records; unheard, its error event would end the runner.
  conn.on('error', () => {});
  // MySQL 8 (the containers runtime) has no userstat: the query fails, as it does where it is off.
  const userstat = await conn
    .query<RowDataPacket[]>('SELECT @@global.userstat AS userstat')
    .then(([rows]) => Number(rows[0]?.['userstat']) === 1)
    .catch(() => false);
  return {
    async snapshot() {
      const readFrom = Date.now();
      const counters: Record<string, WorkCounter> = {};
      const unavailable: Record<string, string> = {};
      // SHOW STATUS first: the TABLE_STATISTICS query after it is then one Com_select in the next difference (readerCost).
      const [status] = await conn.query<RowDataPacket[]>(`SHOW GLOBAL STATUS WHERE Variable_name LIKE 'Com\\_%' OR Variable_name LIKE 'Handler\\_%'`);
      for (const { Variable_name: name, Value: value } of status) {
        const n = String(name);
        if ((STATEMENTS.includes(n) || n.startsWith('Handler_')) && !READER_NOISE.has(n)) counters[n] = { value: Number(value), scope: 'server' };
      }
      if (!userstat) {
        for (const c of TABLE_COUNTERS) unavailable[`table_statistics.${c}`] = 'userstat is off (or this MySQL-wire server has no TABLE_STATISTICS)';
      } else {
        const [[sums]] = await conn.query<RowDataPacket[]>(
          'SELECT COALESCE(SUM(ROWS_READ), 0) AS rows_read, COALESCE(SUM(ROWS_CHANGED), 0) AS rows_changed, COALESCE(SUM(ROWS_CHANGED_X_INDEXES), 0) AS rows_changed_x_indexes FROM INFORMATION_SCHEMA.TABLE_STATISTICS WHERE TABLE_SCHEMA = ?',
          [database],
        );
        for (const c of TABLE_COUNTERS) counters[`table_statistics.${c}`] = { value: Number(sums?.[c] ?? 0), scope: 'database' };
      }
      // The sums' SELECT, after SHOW STATUS, lands in the next window.
      const readerCost = { Com_select: userstat ? 1 : 0 };
      return { engine, database, readFrom, at: Date.now(), counters, unavailable, readerCost };
    },
    close: () => conn.end(),
  };
}
