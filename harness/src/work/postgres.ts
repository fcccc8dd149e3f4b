// PostgreSQL's work counters, all of this database alone. pg_stat_database: transactions
// and rows (tup_*), which each backend reports from its own pending counts at most once a
// second while busy (PGSTAT_MIN_INTERVAL in PostgreSQL 15, the version installed here) and
// within 10 s of going idle (PGSTAT_IDLE_INTERVAL); pg_stat_force_next_flush() forces only
// the caller's own session, so these counters trail the implementation's work by up to a
// second (their lagMs). pg_stat_statements (preloaded by the provisioner): statements and the rows they
// returned or changed, counted as each statement ends, with no delay; its entries can be
// evicted (pg_stat_statements.max), which pg_stat_statements_info.dealloc tells.
// The reader connects to the `postgres` database, so its own queries are in no counter here.
import pg from 'pg';
import { urlWithDatabase } from '../provision/sibling.ts';
import type { WorkCounter, WorkReader } from './counters.ts';

const DATABASE_COLUMNS = ['xact_commit', 'xact_rollback', 'tup_returned', 'tup_fetched', 'tup_inserted', 'tup_updated', 'tup_deleted'] as const;
/** Statements by their first keyword; `with …` and the rest are `other`. */
const KINDS = ['select', 'insert', 'update', 'delete', 'begin', 'commit', 'rollback', 'other'] as const;
const BUSY_LAG_MS = 1_000;

export async function postgresWorkReader(url: string, engine: string): Promise<WorkReader> {
  const database = decodeURIComponent(new URL(url).pathname.slice(1));
  const client = new pg.Client({ connectionString: urlWithDatabase(url, 'postgres') });
  // A connection lost mid-run (the database stopped) fails the next snapshot, which the
  // sampler records; unheard, the client's error event would end the runner.
  client.on('error', () => {});
  await client.connect();
  await client.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
  return {
    async snapshot() {
      const readFrom = Date.now();
      const counters: Record<string, WorkCounter> = {};
      const unavailable: Record<string, string> = {};
      const { rows: stat } = await client.query<Record<string, string>>(
        `SELECT ${DATABASE_COLUMNS.map((c) => `${c}::text`).join(', ')} FROM pg_stat_database WHERE datname = $1`,
        [database],
      );
      if (!stat[0]) throw new Error(`work counters: no database ${database} in pg_stat_database`);
      for (const c of DATABASE_COLUMNS) counters[c] = { value: Number(stat[0][c]), scope: 'database', lagMs: BUSY_LAG_MS };
      // SET and SHOW are a connection's set-up (PgJDBC, pools), not a request's work: left out.
      const { rows: kinds } = await client.query<{ kind: string; calls: string; rows: string }>(
        `SELECT CASE WHEN kw IN (${KINDS.slice(0, -1)
          .map((k) => `'${k}'`)
          .join(', ')}) THEN kw ELSE 'other' END AS kind, SUM(calls)::text AS calls, SUM(rows)::text AS rows
         FROM (SELECT lower(substring(ltrim(query) from '^[A-Za-z]+')) AS kw, calls, rows FROM pg_stat_statements
               WHERE dbid = (SELECT oid FROM pg_database WHERE datname = $1)) s
         WHERE kw IS DISTINCT FROM 'set' AND kw IS DISTINCT FROM 'show' GROUP BY 1`,
        [database],
      );
      counters['statements'] = { value: kinds.reduce((n, r) => n + Number(r.calls), 0), scope: 'database' };
      counters['statements.rows'] = { value: kinds.reduce((n, r) => n + Number(r.rows), 0), scope: 'database' };
      for (const k of KINDS) {
        const row = kinds.find((r) => r.kind === k);
        counters[`statements.${k}`] = { value: Number(row?.calls ?? 0), scope: 'database' };
        counters[`statements.${k}.rows`] = { value: Number(row?.rows ?? 0), scope: 'database' };
      }
      const { rows: info } = await client.query<{ dealloc: string }>('SELECT dealloc::text FROM pg_stat_statements_info');
      // An eviction drops an entry's counts: the statements' counters then go back or lose work.
      counters['statements.evictions'] = { value: Number(info[0]?.dealloc ?? 0), scope: 'server' };
      return { engine, database, readFrom, at: Date.now(), counters, unavailable, readerCost: {} };
    },
    close: () => client.end(),
  };
}
