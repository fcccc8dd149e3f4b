// One database transaction on one pooled mysql2 connection, with the rules every
// implementation's tpcc follows: REPEATABLE READ on every connection the pool opens; a
// deadline over each attempt from the pool checkout on (mysql2 has no acquire timeout, and
// its statement timeout does not cover a PREPARE); a deadlock or a lock-wait timeout rolls
// back and runs the whole transaction again, ATTEMPTS times in all, then TransactionBusy.

import { DB_TIMEOUT_MS, DatabaseTimeout } from '../db-timeouts.js';

export const ATTEMPTS = 3;
const RETRIED = new Map([
  [1213, 'deadlock'],
  [1205, 'lock wait timeout'],
]);

/** Deadlocks or lock waits on every attempt (a 503 the client may retry). */
export class TransactionBusy extends Error {}

/** A promise that rejects with DatabaseTimeout after `ms`, and its cancel. */
function deadline(ms) {
  let timer;
  const expired = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new DatabaseTimeout(`the transaction passed its ${ms} ms deadline`)), ms);
  });
  expired.catch(() => {}); // observed by the races below; unobserved once cancelled
  return { expired, cancel: () => clearTimeout(timer) };
}

/**
 * @param {import('mysql2/promise').Pool} pool
 * @returns {(work: (connection: import('mysql2/promise').PoolConnection) => Promise<any>, options?: { readOnly?: boolean }) => Promise<any>}
 */
export function transactions(pool, timeoutMs = DB_TIMEOUT_MS) {
  // The server's default could differ: each new connection sets the level before its first use
  // (the event hands over the callback-style connection; the SET is queued first).
  pool.on('connection', (connection) => {
    connection.query({ sql: 'SET SESSION TRANSACTION ISOLATION LEVEL REPEATABLE READ', timeout: timeoutMs }, (err) => {
      if (err) connection.destroy();
    });
  });

  async function attempt(work, readOnly) {
    const limit = deadline(timeoutMs);
    const checkout = pool.getConnection();
    let connection;
    try {
      connection = await Promise.race([checkout, limit.expired]);
    } catch (err) {
      limit.cancel();
      // A connection that comes after the deadline goes back to the pool unused.
      checkout.then((late) => late.release(), () => {});
      throw err;
    }
    let reusable = true;
    try {
      const run = (async () => {
        await connection.query(readOnly ? 'START TRANSACTION READ ONLY' : 'START TRANSACTION');
        const result = await work(connection);
        await connection.query('COMMIT');
        return result;
      })();
      run.catch(() => {}); // past the deadline its outcome is nobody's: the request was answered
      return await Promise.race([run, limit.expired]);
    } catch (err) {
      // Past the deadline a ROLLBACK would wait as long as the database: the connection is
      // closed instead (the server then rolls back). A failed ROLLBACK closes it too.
      reusable = !(err instanceof DatabaseTimeout) && (await connection.query({ sql: 'ROLLBACK', timeout: timeoutMs }).then(() => true, () => false));
      throw err;
    } finally {
      limit.cancel();
      if (reusable) connection.release();
      else connection.destroy();
    }
  }

  return async function transaction(work, { readOnly = false } = {}) {
    for (let attempts = 1; ; attempts++) {
      try {
        return await attempt(work, readOnly);
      } catch (err) {
        const reason = RETRIED.get(err?.errno);
        if (reason === undefined) throw err;
        if (attempts === ATTEMPTS) throw new TransactionBusy(`the transaction met a ${reason} ${ATTEMPTS} times`);
      }
    }
  };
}
