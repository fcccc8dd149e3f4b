// Entry point: read the environment, connect to the databases that are configured (a mysql2
// pool for tpcc and forum, a mongoose connection for users and documents, a node-postgres pool for
// sports; DB_POOL_SIZE connections each, as the paper's createPool with connectionLimit), build the
// app, listen, and shut down cleanly on SIGTERM/SIGINT.
import mongoose from 'mongoose';
import mysql from 'mysql2/promise';
import pg from 'pg';
import { buildApp, type Apis } from './app.ts';
import { ConfigError, loadConfig, type Config } from './config.ts';
import { DB_TIMEOUT_MS } from './db-timeouts.ts';
import { createDocumentsData } from './documents/data.ts';
import { createForumData } from './forum/data.ts';
import { MONGO_TIMEOUTS } from './mongo.ts';
import { reconnectWhenMonitorWedges } from './mongo-monitor.ts';
import { PG_TIMEOUTS } from './postgres.ts';
import { logInternalError } from './problem.ts';
import { createSportsData } from './sports/data.ts';
import { createTpccData } from './tpcc/data.ts';
import { createUsersData } from './users/data.ts';

let config: Config;
try {
  config = loadConfig();
} catch (err) {
  if (!(err instanceof ConfigError)) throw err;
  console.error(`elysia: configuration error: ${err.message}`);
  process.exit(1);
}

const pool =
  config.mysql &&
  mysql.createPool({
    ...config.mysql,
    connectionLimit: config.poolSize, // DB_POOL_SIZE, exactly (the harness sets the same value for every implementation)
    dateStrings: true, // DATETIME columns as 'YYYY-MM-DD HH:MM:SS', no timezone shift
    connectTimeout: DB_TIMEOUT_MS, // a new connection to a stalled server fails within the bound (src/db-timeouts.ts)
  });

let mongo: mongoose.Connection | undefined;
if (config.mongoUrl) {
  // The harness owns the collections and their indexes (it seeds them): the app creates
  // neither at startup, as mongoose's production docs advise.
  mongoose.set('autoIndex', false);
  mongoose.set('autoCreate', false);
  try {
    mongo = (await mongoose.connect(config.mongoUrl, { maxPoolSize: config.poolSize, ...MONGO_TIMEOUTS })).connection;
  } catch (err) {
    console.error(`elysia: cannot connect to MONGO_URL: ${(err as Error).message}`);
    process.exit(1);
  }
  reconnectWhenMonitorWedges(mongo.getClient(), { boundMs: MONGO_TIMEOUTS.connectTimeoutMS });
}

// pg parses DATE into a local-time Date; the API answers the DATE's own 'YYYY-MM-DD'.
const PG_DATE = 1082;
const pgPool =
  config.postgresUrl === undefined
    ? undefined
    : new pg.Pool({
        connectionString: config.postgresUrl,
        max: config.poolSize, // DB_POOL_SIZE, exactly
        ...PG_TIMEOUTS, // checkout, connect and every statement end within the bound (src/postgres.ts)
        types: { getTypeParser: ((oid: number, format?: 'text' | 'binary') => (oid === PG_DATE ? (value: string) => value : pg.types.getTypeParser(oid, format))) as typeof pg.types.getTypeParser },
      });
// An idle client whose server went away emits 'error' on the pool; the next query reports it.
pgPool?.on('error', (err) => logInternalError('postgres pool', err));

const apis: Apis = {
  ...(pool ? { tpcc: createTpccData(pool), forum: createForumData(pool) } : {}),
  ...(mongo && config.jwt ? { users: { data: createUsersData(mongo), jwt: config.jwt }, documents: createDocumentsData(mongo) } : {}),
  ...(pgPool && config.jwt ? { sports: { data: createSportsData(pgPool), jwt: config.jwt } } : {}),
};
const app = buildApp(apis);

process.on('unhandledRejection', (reason) => logInternalError('unhandledRejection', reason));

app.listen({ port: config.port, hostname: config.host }, (server) => {
  console.log(`elysia: listening on http://${server.hostname}:${server.port} (APIs: ${Object.keys(apis).join(', ')}; Bun ${Bun.version}, NODE_ENV=${process.env.NODE_ENV ?? 'unset'}, DB_POOL_SIZE=${config.poolSize})`);
});

let shuttingDown = false;
async function shutdown(signal: string) {
  if (shuttingDown) return;
  shuttingDown = true;
  console.log(`elysia: ${signal} received, shutting down`);
  // In-flight requests finish (at most 10 s), then the pools end.
  const force = setTimeout(() => process.exit(0), 10_000);
  try {
    await app.stop();
    await pool?.end();
    await pgPool?.end();
    await mongoose.disconnect();
  } catch (err) {
    logInternalError('shutdown', err);
  }
  clearTimeout(force);
  process.exit(0);
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
