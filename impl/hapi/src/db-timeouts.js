// How long the app waits on MongoDB before it answers 503 unavailable (make resilience).
// The driver (7.x, no whole-operation timeoutMS) waits without end by default on a pool
// checkout and on a socket: each wait gets the timeout. A socket timeout closes that
// connection; server selection bounds the wait once the monitor gave up on the server.
// impl.yaml's resilience.stallBoundMs covers the longest chain (checkout, then socket).
export const DB_TIMEOUT_MS = 2_000;

export const MONGO_TIMEOUTS = Object.freeze({
  serverSelectionTimeoutMS: DB_TIMEOUT_MS,
  connectTimeoutMS: DB_TIMEOUT_MS,
  socketTimeoutMS: DB_TIMEOUT_MS,
  waitQueueTimeoutMS: DB_TIMEOUT_MS,
});

const UNAVAILABLE = new Set(['MongoServerSelectionError', 'MongoNetworkTimeoutError', 'MongoNetworkError', 'MongoWaitQueueTimeoutError', 'MongoPoolClearedError']);

/** Whether an error means the database did not answer (in time), not that the request or the code is wrong. */
export function databaseUnavailable(err) {
  return UNAVAILABLE.has(err?.name);
}
