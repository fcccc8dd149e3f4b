// How long the app waits on its database before it answers 503 unavailable: a statement's
// timeout, a new connection's connect timeout, the MongoDB operation timeout (timeoutMS).
// impl.yaml's resilience.stallBoundMs is this plus the answer's own time.
export const DB_TIMEOUT_MS = 2_000;

const UNAVAILABLE_CODES = new Set(['PROTOCOL_SEQUENCE_TIMEOUT', 'ETIMEDOUT', 'PROTOCOL_CONNECTION_LOST', 'ECONNREFUSED', 'ECONNRESET']);
const UNAVAILABLE_NAMES = new Set(['MongoServerSelectionError', 'MongoNetworkTimeoutError', 'MongoNetworkError', 'MongoOperationTimeoutError', 'MongoWaitQueueTimeoutError', 'MongoPoolClearedError']);

/** Whether an error means the database did not answer (in time), not that the request or the code is wrong. */
export function databaseUnavailable(err) {
  return UNAVAILABLE_CODES.has(err?.code) || UNAVAILABLE_NAMES.has(err?.name);
}
