// Entry point: read the environment, open the mysql2 pool (DB_POOL_SIZE connections, as the
// paper's createPool with connectionLimit), build the app, listen, and shut down cleanly on
// SIGTERM/SIGINT.
import mysql from 'mysql2/promise';
import { buildApp } from './app.ts';
import { ConfigError, loadConfig, type Config } from './config.ts';
import { DB_TIMEOUT_MS } from './db-timeouts.ts';
import { logInternalError } from './problem.ts';
import { createTpccData } from './tpcc/data.ts';

let config: Config;
try {
  config = loadConfig();
} catch (err) {
  if (!(err instanceof ConfigError)) throw err;
  console.error(`elysia: configuration error: ${err.message}`);
  process.exit(1);
}

const pool = mysql.createPool({
  ...config.mysql,
  connectionLimit: config.poolSize, // DB_POOL_SIZE, exactly (the harness sets the same value for every implementation)
  dateStrings: true, // DATETIME columns as 'YYYY-MM-DD HH:MM:SS', no timezone shift
  connectTimeout: DB_TIMEOUT_MS, // a new connection to a stalled server fails within the bound (src/db-timeouts.ts)
});

const app = buildApp({ tpcc: createTpccData(pool) });

process.on('unhandledRejection', (reason) => logInternalError('unhandledRejection', reason));

app.listen({ port: config.port, hostname: config.host }, (server) => {
  console.log(`elysia: listening on http://${server.hostname}:${server.port} (APIs: tpcc; Bun ${Bun.version}, NODE_ENV=${process.env.NODE_ENV ?? 'unset'}, DB_POOL_SIZE=${config.poolSize})`);
});

let shuttingDown = false;
async function shutdown(signal: string) {
  if (shuttingDown) return;
  shuttingDown = true;
  console.log(`elysia: ${signal} received, shutting down`);
  // In-flight requests finish (at most 10 s), then the pool ends.
  const force = setTimeout(() => process.exit(0), 10_000);
  try {
    await app.stop();
    await pool.end();
  } catch (err) {
    logInternalError('shutdown', err);
  }
  clearTimeout(force);
  process.exit(0);
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
