// The MongoDB side of the database waits (make resilience): the driver's timeouts, and which of
// its errors mean the database did not answer in time (a 503, never a 500). The same settings
// as impl/express and impl/hapi, so every implementation gives up on MongoDB alike.
import mongoose from 'mongoose';
import { DB_TIMEOUT_MS } from './db-timeouts.ts';

/**
 * The driver waits without end by default on a pool checkout and on a socket: each wait gets the
 * timeout (a checkout wait and a socket wait can chain: 4 s). Server selection bounds the wait
 * once the monitor gave up on the server; the monitor checks every second (default 10 s) so that
 * a restarted server is seen again soon.
 */
export const MONGO_TIMEOUTS = Object.freeze({
  serverSelectionTimeoutMS: DB_TIMEOUT_MS,
  connectTimeoutMS: DB_TIMEOUT_MS,
  socketTimeoutMS: DB_TIMEOUT_MS,
  waitQueueTimeoutMS: DB_TIMEOUT_MS,
  heartbeatFrequencyMS: 1_000,
});

const { MongoNetworkError, MongoServerSelectionError } = mongoose.mongo;
// An operation cut off by the client's own reconnect (src/mongo-monitor.ts), or queued for a pooled connection that never came.
const MONGO_UNAVAILABLE_NAMES = new Set(['MongoWaitQueueTimeoutError', 'MongoTopologyClosedError', 'MongoPoolClosedError', 'MongoNotConnectedError']);
// The server cancelled the operation as it shut down: MongoDB's ShutdownInProgress, InterruptedAtShutdown,
// InterruptedDueToReplStateChange; FerretDB says "context canceled" (seen in make resilience's restart).
const MONGO_SHUTDOWN_CODES = new Set([91, 11600, 11602]);
function cancelledAtShutdown(err: unknown): boolean {
  const e = err as { name?: unknown; code?: unknown; message?: unknown } | null;
  return e?.name === 'MongoServerError' && ((typeof e.code === 'number' && MONGO_SHUTDOWN_CODES.has(e.code)) || /context canceled/.test(String(e.message ?? '')));
}

/** Every network error (a socket timeout, a pool cleared by the monitor), no server, no pooled connection in time. */
export function mongoUnavailable(err: unknown): boolean {
  const name = (err as { name?: unknown } | null)?.name;
  return err instanceof MongoNetworkError || err instanceof MongoServerSelectionError || (typeof name === 'string' && MONGO_UNAVAILABLE_NAMES.has(name)) || cancelledAtShutdown(err);
}
