// Entry point: read the environment, connect to the databases that are
// configured (one MySQL pool for the forum and tpcc, a mongoose connection for the MongoDB
// APIs, a pg pool for sports), build the app with the APIs they serve, listen, and shut down cleanly
// on SIGTERM/SIGINT.

import mongoose from 'mongoose';
import mysql from 'mysql2/promise';
import pg from 'pg';

import { buildApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { createForumData } from './data/forum.js';
import { createSportsData } from './data/sports.js';
import { createTpccData } from './data/tpcc.js';
import { createUsersData } from './data/users.js';
import { createDocumentsData } from './data/documents.js';
import { logInternalError } from './problem.js';
import { DB_TIMEOUT_MS, MONGO_TIMEOUTS, PG_TIMEOUTS } from './db-timeouts.js';
import { reconnectWhenMonitorWedges } from './mongo-monitor.js';

let config;
try {
  config = loadConfig();
} catch (err) {
  if (!(err instanceof ConfigError)) throw err;
  console.error(`express: configuration error: ${err.message}`);
  process.exit(1);
}

const apis = {};

const pool =
  config.mysql &&
  mysql.createPool({
    ...config.mysql,
    connectionLimit: config.poolSize, // DB_POOL_SIZE, exactly (the harness sets the same value for every implementation)
    dateStrings: true, // DATE columns as 'YYYY-MM-DD', no timezone shift
    connectTimeout: DB_TIMEOUT_MS, // a new connection to a stalled server fails within the bound (src/db-timeouts.js)
  });
if (pool) {
  apis.forum = createForumData(pool);
  apis.tpcc = createTpccData(pool);
}

if (config.mongoUrl) {
  // The harness owns the collections and their indexes (it seeds them): the app
  // neither creates indexes nor collections at startup, as mongoose's production docs advise.
  mongoose.set('autoIndex', false);
  mongoose.set('autoCreate', false);
  try {
    await mongoose.connect(config.mongoUrl, { maxPoolSize: config.poolSize, ...MONGO_TIMEOUTS });
  } catch (err) {
    console.error(`express: cannot connect to MONGO_URL: ${err.message}`);
    process.exit(1);
  }
  reconnectWhenMonitorWedges(mongoose.connection.getClient(), { boundMs: MONGO_TIMEOUTS.connectTimeoutMS });
  apis.users = { data: createUsersData(mongoose.connection), jwt: config.jwt };
  apis.documents = createDocumentsData(mongoose.connection);
}

// DATE columns as 'YYYY-MM-DD' strings: no Date object, no timezone shift.
const PG_DATE = 1082;
const pgPool =
  config.postgresUrl &&
  new pg.Pool({
    connectionString: config.postgresUrl,
    max: config.poolSize, // DB_POOL_SIZE, exactly
    ...PG_TIMEOUTS, // checkout, connect and every query end within the bound (src/db-timeouts.js)
    types: { getTypeParser: (oid, format) => (oid === PG_DATE ? (v) => v : pg.types.getTypeParser(oid, format)) },
  });
if (pgPool) {
  // An idle client whose server went away emits 'error' on the pool; the next query reports it.
  pgPool.on('error', (err) => logInternalError('postgres pool', err));
  apis.sports = { data: createSportsData(pgPool), jwt: config.jwt };
}

const app = buildApp(apis);

// A stray rejection is logged on one line; the process stays up.
process.on('unhandledRejection', (reason) => logInternalError('unhandledRejection', reason));

const server = app.listen(config.port, config.host, (err) => {
  if (err) {
    console.error(`express: cannot listen on ${config.host}:${config.port}: ${err.message}`);
    process.exit(1);
  }
  const { address, port } = server.address();
  console.log(`express: listening on http://${address}:${port} (APIs: ${Object.keys(apis).join(', ')}; NODE_ENV=${process.env.NODE_ENV ?? 'unset'}, DB_POOL_SIZE=${config.poolSize})`);
});

let shuttingDown = false;
function shutdown(signal) {
  if (shuttingDown) return;
  shuttingDown = true;
  console.log(`express: ${signal} received, shutting down`);
  // Connections still busy after 10 s are cut so that shutdown always finishes.
  setTimeout(() => server.closeAllConnections(), 10_000).unref();
  server.close(async () => {
    try {
      await pool?.end();
      await pgPool?.end();
      await mongoose.disconnect();
    } catch (err) {
      logInternalError('database disconnect', err);
    }
    process.exit(0);
  });
  server.closeIdleConnections();
}
process.on('SIGTERM', () => shutdown('SIGTERM'));
process.on('SIGINT', () => shutdown('SIGINT'));
