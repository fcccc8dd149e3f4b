// How long the app waits on its database before it answers 503 unavailable (make
// resilience): a statement's timeout, a new connection's connect timeout, and the MongoDB
// driver's waits. impl.yaml's resilience.stallBoundMs covers the longest chain of them.
import mongoose from 'mongoose';

export const DB_TIMEOUT_MS = 2_000;

/**
 * The MongoDB driver (7.x: its whole-operation timeoutMS is gone) waits without end by
 * default on a pool checkout and on a socket: each wait gets the timeout. A socket timeout
 * closes that connection; server selection bounds the wait once the monitor gave up on the server.
 */
export const MONGO_TIMEOUTS = Object.freeze({
  serverSelectionTimeoutMS: DB_TIMEOUT_MS,
  connectTimeoutMS: DB_TIMEOUT_MS,
  socketTimeoutMS: DB_TIMEOUT_MS,
  waitQueueTimeoutMS: DB_TIMEOUT_MS,
  // The monitor checks the server every second (default 10 s): once it gave up on a restarted
  // server, server selection fails until the next check, so recovery waits for it.
  heartbeatFrequencyMS: 1_000,
});

// mysql2's codes for a timed-out statement and a lost or refused connection.
const UNAVAILABLE_CODES = new Set(['PROTOCOL_SEQUENCE_TIMEOUT', 'ETIMEDOUT', 'PROTOCOL_CONNECTION_LOST', 'ECONNREFUSED', 'ECONNRESET']);
// The MongoDB driver's: every network error (socket timeout, a pool cleared by the monitor), no server, no pooled connection in time.
const { MongoNetworkError, MongoServerSelectionError } = mongoose.mongo;

/** The app's own deadline on a database wait passed (a 503, like the drivers' timeouts). */
export class DatabaseTimeout extends Error {}

/** Whether an error means the database did not answer (in time), not that the request or the code is wrong. */
export function databaseUnavailable(err) {
  return (
    err instanceof DatabaseTimeout ||
    err instanceof MongoNetworkError ||
    err instanceof MongoServerSelectionError ||
    err?.name === 'MongoWaitQueueTimeoutError' ||
    UNAVAILABLE_CODES.has(err?.code)
  );
}
