// Entry point: read the environment, connect to the databases that are configured (a
// mongoose connection for documents and users, a mysql2 pool for forum and tpcc, a
// node-postgres pool for sports; each pool holds DB_POOL_SIZE connections), build the Hapi
// server with the APIs they serve, start it, and stop cleanly on SIGTERM/SIGINT.

import mongoose from 'mongoose';
import mysql from 'mysql2/promise';
import pg from 'pg';

import { createServer } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { createDocumentsData } from './data/documents.js';
import { createForumData } from './data/forum.js';
import { createSportsData } from './data/sports.js';
import { createTpccData } from './data/tpcc.js';
import { createUsersData } from './data/users.js';
import { DB_TIMEOUT_MS, MONGO_TIMEOUTS, PG_TIMEOUTS } from './db-timeouts.js';
import { reconnectWhenMonitorWedges } from './mongo-monitor.js';
import { logInternalError } from './problem.js';

let config;
try {
  config = loadConfig();
} catch (err) {
  if (!(err instanceof ConfigError)) throw err;
  console.error(`hapi: configuration error: ${err.message}`);
  process.exit(1);
}

const apis = {};

let connection;
if (config.mongoUrl) {
  // The harness owns the collections and their indexes (it seeds them): none is created at
  // startup, as mongoose's production notes advise.
  mongoose.set('autoIndex', false);
  mongoose.set('autoCreate', false);
  try {
    connection = await mongoose.createConnection(config.mongoUrl, { maxPoolSize: config.poolSize, ...MONGO_TIMEOUTS }).asPromise();
  } catch (err) {
    console.error(`hapi: cannot connect to MONGO_URL: ${err.message}`);
    process.exit(1);
  }
  reconnectWhenMonitorWedges(connection.getClient(), { boundMs: MONGO_TIMEOUTS.connectTimeoutMS });
  apis.documents = createDocumentsData(connection);
  apis.users = { data: createUsersData(connection), jwt: config.jwt };
}

let pool;
if (config.mysql) {
  pool = mysql.createPool({
    ...config.mysql,
    connectionLimit: config.poolSize, // DB_POOL_SIZE, exactly (the same for every implementation)
    dateStrings: true, // DATETIME and DATE as their text: no Date object, no timezone shift
    connectTimeout: DB_TIMEOUT_MS, // a new connection to a stalled server fails within the bound
  });
  apis.forum = createForumData(pool);
  apis.tpcc = createTpccData(pool);
}

let pgPool;
if (config.postgresUrl) {
  // Connections are made on demand: a database that is not up yet fails the first requests (503), not the start.
  pgPool = new pg.Pool({ connectionString: config.postgresUrl, max: config.poolSize, ...PG_TIMEOUTS });
  // An idle connection whose server went away emits 'error' on the pool (the pool drops it): logged, not fatal.
  pgPool.on('error', (err) => logInternalError('postgres pool', err));
  apis.sports = { data: createSportsData(pgPool), jwt: config.jwt };
}

const server = await createServer({ port: config.port, host: config.host, apis });

// A stray rejection is logged on one line; the process stays up.
process.on('unhandledRejection', (reason) => logInternalError('unhandledRejection', reason));

try {
  await server.start();
} catch (err) {
  console.error(`hapi: cannot listen on ${config.host}:${config.port}: ${err.message}`);
  process.exit(1);
}
console.log(`hapi: listening on ${server.info.uri} (APIs: ${Object.keys(apis).join(', ')}; NODE_ENV=${process.env.NODE_ENV ?? 'unset'}, DB_POOL_SIZE=${config.poolSize})`);

let shuttingDown = false;
async function shutdown(signal) {
  if (shuttingDown) return;
  shuttingDown = true;
  console.log(`hapi: ${signal} received, shutting down`);
  try {
    // Stops accepting, lets in-flight requests finish for at most 10 s.
    await server.stop({ timeout: 10_000 });
    await connection?.close();
    await pool?.end();
    await pgPool?.end();
  } catch (err) {
    logInternalError('shutdown', err);
  }
  process.exit(0);
}
process.on('SIGTERM', () => shutdown('SIGTERM'));
process.on('SIGINT', () => shutdown('SIGINT'));
