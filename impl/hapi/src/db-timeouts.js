// How long the app waits on a database before it answers 503 unavailable (make resilience).
// MongoDB: the driver (7.x, no whole-operation timeoutMS) waits without end by default on a
// pool checkout and on a socket: each wait gets the timeout. A socket timeout closes that
// connection; server selection bounds the wait once the monitor gave up on the server.
// MySQL: a deadline on each whole transaction, from the pool checkout on
// (src/data/mysql-transaction.js), and the pool's connect timeout.
// PostgreSQL: node-postgres waits without end by default on a pool checkout, a new connection
// and an answer: each gets the timeout (PG_TIMEOUTS).
// impl.yaml's resilience.stallBoundMs covers the longest chain (checkout, then socket).
import mongoose from 'mongoose';

export const DB_TIMEOUT_MS = 2_000;

export const MONGO_TIMEOUTS = Object.freeze({
  serverSelectionTimeoutMS: DB_TIMEOUT_MS,
  connectTimeoutMS: DB_TIMEOUT_MS,
  socketTimeoutMS: DB_TIMEOUT_MS,
  waitQueueTimeoutMS: DB_TIMEOUT_MS,
  // The monitor checks the server every second (default 10 s): once it gave up on a restarted
  // server, server selection fails until the next check, so recovery waits for it.
  heartbeatFrequencyMS: 1_000,
});

/**
 * node-postgres pool options. connectionTimeoutMillis bounds a checkout and a connect;
 * query_timeout is the client's own deadline on an answer (a stalled server cannot run its
 * own timeout), after which the pool drops that connection; statement_timeout (sent at
 * connect) lets a healthy server cancel a statement that runs too long.
 */
export const PG_TIMEOUTS = Object.freeze({
  connectionTimeoutMillis: DB_TIMEOUT_MS,
  query_timeout: DB_TIMEOUT_MS,
  statement_timeout: DB_TIMEOUT_MS,
});

/** The app's own deadline on a database wait passed. */
export class DatabaseTimeout extends Error {}

// MongoDB: every network error (socket timeout, a pool cleared by the monitor), no server, no pooled connection in time.
const { MongoNetworkError, MongoServerSelectionError } = mongoose.mongo;
// An operation cut off by the client's own reconnect (src/mongo-monitor.js), or queued for a pooled connection that never came.
const MONGO_UNAVAILABLE_NAMES = new Set(['MongoWaitQueueTimeoutError', 'MongoTopologyClosedError', 'MongoPoolClosedError', 'MongoNotConnectedError']);
// The server cancelled the operation as it shut down: MongoDB's ShutdownInProgress, InterruptedAtShutdown,
// InterruptedDueToReplStateChange; FerretDB says "context canceled" (seen in make resilience's restart).
const MONGO_SHUTDOWN_CODES = new Set([91, 11600, 11602]);
const cancelledAtShutdown = (err) => err?.name === 'MongoServerError' && (MONGO_SHUTDOWN_CODES.has(err.code) || /context canceled/.test(err.message ?? ''));
// mysql2: a timed-out statement or connect; any driver's lost or refused connection (node's socket error codes).
const MYSQL_UNAVAILABLE = new Set(['PROTOCOL_SEQUENCE_TIMEOUT', 'ETIMEDOUT', 'PROTOCOL_CONNECTION_LOST', 'ECONNREFUSED', 'ECONNRESET']);

// node-postgres 8 gives its own timeouts and lost connections no code, only a message.
const PG_UNAVAILABLE_MESSAGE = /^(?:Query read timeout|timeout exceeded when trying to connect|Connection terminated(?: unexpectedly| due to connection timeout)?|Client has encountered a connection error and is not queryable)$/;
// SQLSTATEs: query_canceled (statement_timeout), admin_shutdown, crash_shutdown, cannot_connect_now; class 08, connection exceptions.
const PG_UNAVAILABLE_STATE = /^(?:57014|57P0[123]|08[0-9A-Z]{3})$/;
const postgresUnavailable = (err) =>
  typeof err?.code === 'string' ? PG_UNAVAILABLE_STATE.test(err.code) : err instanceof Error && PG_UNAVAILABLE_MESSAGE.test(err.message);

/** Whether an error means the database did not answer (in time), not that the request or the code is wrong. */
export function databaseUnavailable(err) {
  return (
    err instanceof DatabaseTimeout ||
    err instanceof MongoNetworkError ||
    err instanceof MongoServerSelectionError ||
    MONGO_UNAVAILABLE_NAMES.has(err?.name) ||
    cancelledAtShutdown(err) ||
    MYSQL_UNAVAILABLE.has(err?.code) ||
    postgresUnavailable(err)
  );
}
