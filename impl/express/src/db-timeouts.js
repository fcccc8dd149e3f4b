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
  // The monitor checks the server every second (default 10 s): once it gave up on a restarted
  // server, server selection fails until the next check, so recovery waits for it.
  heartbeatFrequencyMS: 1_000,
});

/**
 * node-postgres (pg-pool) waits without end by default on a pool checkout, a new
 * connection and an answer. connectionTimeoutMillis bounds the checkout and the connect;
 * query_timeout is the client's own read deadline (a stalled server cannot even run its
 * statement_timeout), after which the pool discards that connection; statement_timeout
 * makes the server cancel a statement that runs too long on a healthy one.
 */
export const PG_TIMEOUTS = Object.freeze({
  connectionTimeoutMillis: DB_TIMEOUT_MS,
  query_timeout: DB_TIMEOUT_MS,
  statement_timeout: DB_TIMEOUT_MS,
});

/** The app's own deadline on a database wait passed (a 503, like the drivers' timeouts). */
export class DatabaseTimeout extends Error {}
