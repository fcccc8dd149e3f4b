// Entry point: read the environment, create the MySQL pool, build the app,
// listen, and shut down cleanly on SIGTERM/SIGINT.

import mysql from 'mysql2/promise';

import { buildApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { createForumData } from './data/forum.js';
import { logInternalError } from './problem.js';

let config;
try {
  config = loadConfig();
} catch (err) {
  if (!(err instanceof ConfigError)) throw err;
  console.error(`express: configuration error: ${err.message}`);
  process.exit(1);
}

const pool = mysql.createPool({
  ...config.mysql,
  connectionLimit: config.poolSize, // DB_POOL_SIZE, exactly (the harness sets the same value for every implementation)
  dateStrings: true, // DATE columns as 'YYYY-MM-DD', no timezone shift
});

const app = buildApp({ data: createForumData(pool) });

// A stray rejection is logged on one line; the process stays up.
process.on('unhandledRejection', (reason) => logInternalError('unhandledRejection', reason));

const server = app.listen(config.port, config.host, (err) => {
  if (err) {
    console.error(`express: cannot listen on ${config.host}:${config.port}: ${err.message}`);
    process.exit(1);
  }
  const { address, port } = server.address();
  console.log(`express: listening on http://${address}:${port} (NODE_ENV=${process.env.NODE_ENV ?? 'unset'}, DB_POOL_SIZE=${config.poolSize})`);
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
      await pool.end();
    } catch (err) {
      logInternalError('pool.end', err);
    }
    process.exit(0);
  });
  server.closeIdleConnections();
}
process.on('SIGTERM', () => shutdown('SIGTERM'));
process.on('SIGINT', () => shutdown('SIGINT'));
