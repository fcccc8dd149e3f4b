// How long the app waits on a database before it answers 503 unavailable (make resilience):
// MySQL: a new connection's connect timeout, and a deadline on each transaction from the pool
// checkout on (tpcc/data.ts); MongoDB: the driver's waits (mongo.ts). impl.yaml's resilience.stallBoundMs covers them with room.
export const DB_TIMEOUT_MS = 2_000;

/** The app's own deadline on a database wait passed (a 503, like a driver's timeout). */
export class DatabaseTimeout extends Error {}

const UNAVAILABLE_CODES = new Set(['PROTOCOL_SEQUENCE_TIMEOUT', 'ETIMEDOUT', 'PROTOCOL_CONNECTION_LOST', 'ECONNREFUSED', 'ECONNRESET']);

/** Whether an error means the database did not answer (in time), not that the request or the code is wrong. */
export function databaseUnavailable(err: unknown): boolean {
  return err instanceof DatabaseTimeout || UNAVAILABLE_CODES.has(String((err as { code?: unknown } | null)?.code));
}
