// How long the app waits on its database before it answers 503 unavailable (make
// resilience): a statement's timeout, a new connection's connect timeout, and the MongoDB
// driver's waits. impl.yaml's resilience.stallBoundMs covers the longest chain of them.
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
});

const UNAVAILABLE_CODES = new Set(['PROTOCOL_SEQUENCE_TIMEOUT', 'ETIMEDOUT', 'PROTOCOL_CONNECTION_LOST', 'ECONNREFUSED', 'ECONNRESET']);
const UNAVAILABLE_NAMES = new Set(['MongoServerSelectionError', 'MongoNetworkTimeoutError', 'MongoNetworkError', 'MongoOperationTimeoutError', 'MongoWaitQueueTimeoutError', 'MongoPoolClearedError']);

/** The app's own deadline on a database wait passed (a 503, like the drivers' timeouts). */
export class DatabaseTimeout extends Error {}

/** Whether an error means the database did not answer (in time), not that the request or the code is wrong. */
export function databaseUnavailable(err) {
  return err instanceof DatabaseTimeout || UNAVAILABLE_CODES.has(err?.code) || UNAVAILABLE_NAMES.has(err?.name);
}
