// Which errors mean the database did not answer (in time): apart from db-timeouts.js so that
// the data modules that need only the timeouts do not load the MongoDB driver.
import mongoose from 'mongoose';
import { DatabaseTimeout } from './db-timeouts.js';

// mysql2's codes for a timed-out statement and a lost or refused connection.
const UNAVAILABLE_CODES = new Set(['PROTOCOL_SEQUENCE_TIMEOUT', 'ETIMEDOUT', 'PROTOCOL_CONNECTION_LOST', 'ECONNREFUSED', 'ECONNRESET']);
// The MongoDB driver's: every network error (socket timeout, a pool cleared by the monitor), no server, no pooled connection in time.
const { MongoNetworkError, MongoServerSelectionError } = mongoose.mongo;
// An operation cut off by the client's own reconnect (src/mongo-monitor.js), or queued for a pooled connection that never came.
const MONGO_UNAVAILABLE_NAMES = new Set(['MongoWaitQueueTimeoutError', 'MongoTopologyClosedError', 'MongoPoolClosedError', 'MongoNotConnectedError']);
// The server cancelled the operation as it shut down: MongoDB's ShutdownInProgress, InterruptedAtShutdown,
// InterruptedDueToReplStateChange; FerretDB says "context canceled" (seen in make resilience's restart).
const MONGO_SHUTDOWN_CODES = new Set([91, 11600, 11602]);
const cancelledAtShutdown = (err) => err?.name === 'MongoServerError' && (MONGO_SHUTDOWN_CODES.has(err.code) || /context canceled/.test(err.message ?? ''));
// node-postgres (8.x) gives its own timeouts and lost connections no code, only these messages.
const PG_UNAVAILABLE_MESSAGES = new Set([
  'Query read timeout', // query_timeout
  'timeout exceeded when trying to connect', // connectionTimeoutMillis on a pool checkout
  'Connection terminated due to connection timeout', // connectionTimeoutMillis on a new connection
  'Connection terminated unexpectedly',
  'Connection terminated',
  'Client has encountered a connection error and is not queryable',
]);
// PostgreSQL's SQLSTATEs for the same: a statement cancelled by statement_timeout, a server
// shutting down or starting up; class 08 is every connection exception.
const PG_UNAVAILABLE_STATES = new Set(['57014', '57P01', '57P02', '57P03']);

function postgresUnavailable(err) {
  if (typeof err?.code === 'string' && err.code.length === 5 && (PG_UNAVAILABLE_STATES.has(err.code) || err.code.startsWith('08'))) return true;
  return err?.code === undefined && PG_UNAVAILABLE_MESSAGES.has(err?.message);
}

/** Whether an error means the database did not answer (in time), not that the request or the code is wrong. */
export function databaseUnavailable(err) {
  return (
    err instanceof DatabaseTimeout ||
    err instanceof MongoNetworkError ||
    err instanceof MongoServerSelectionError ||
    MONGO_UNAVAILABLE_NAMES.has(err?.name) ||
    cancelledAtShutdown(err) ||
    UNAVAILABLE_CODES.has(err?.code) ||
    postgresUnavailable(err)
  );
}
