// The PostgreSQL side of the database waits (make resilience): node-postgres's timeouts, and
// which of its errors mean the database did not answer in time (a 503, never a 500). The same
// settings and the same errors as impl/express, so both give up on PostgreSQL alike.
import { DB_TIMEOUT_MS, DatabaseTimeout } from './db-timeouts.ts';

/**
 * pg-pool waits without end by default on a checkout, a new connection and an answer.
 * connectionTimeoutMillis bounds the checkout and the connect; query_timeout is the client's
 * own read deadline (a stalled server cannot even run its statement_timeout), after which the
 * pool discards that connection; statement_timeout makes the server cancel a statement that
 * runs too long on a healthy one.
 */
export const PG_TIMEOUTS = Object.freeze({
  connectionTimeoutMillis: DB_TIMEOUT_MS,
  query_timeout: DB_TIMEOUT_MS,
  statement_timeout: DB_TIMEOUT_MS,
});

// node-postgres (8.x) gives its own timeouts and lost connections no code, only these messages.
const UNAVAILABLE_MESSAGES = new Set([
  'Query read timeout', // query_timeout
  'timeout exceeded when trying to connect', // connectionTimeoutMillis on a pool checkout
  'Connection terminated due to connection timeout', // connectionTimeoutMillis on a new connection
  'Connection terminated unexpectedly',
  'Connection terminated',
  'Client has encountered a connection error and is not queryable',
]);
// PostgreSQL's SQLSTATEs for the same: a statement cancelled by statement_timeout, a server
// shutting down or starting up; class 08 is every connection exception.
const UNAVAILABLE_STATES = new Set(['57014', '57P01', '57P02', '57P03']);
// A refused or reset socket (the server is down or restarting): Node's and Bun's codes.
const UNAVAILABLE_SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE']);

/** Whether an error means PostgreSQL did not answer (in time), not that the request or the code is wrong. */
export function postgresUnavailable(err: unknown): boolean {
  if (err instanceof DatabaseTimeout) return true;
  const { code, message } = (err ?? {}) as { code?: unknown; message?: unknown };
  if (typeof code === 'string') return UNAVAILABLE_SOCKET_CODES.has(code) || (code.length === 5 && (UNAVAILABLE_STATES.has(code) || code.startsWith('08')));
  return code === undefined && typeof message === 'string' && UNAVAILABLE_MESSAGES.has(message);
}
