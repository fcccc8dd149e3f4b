// Handlers of the tpcc API: the validated body (the routes' joi schemas ran already) → one
// transaction in the data layer → the terminal's output. The data layer's refusals become
// problems; anything else reaches onPreResponse (a 503 if the database did not answer, else a 500).

import { TransactionBusy } from '../data/mysql-transaction.js';
import { TpccItemNotFound, TpccNotFound } from '../data/tpcc.js';
import { PROBLEMS, problemError } from '../problem.js';

async function answer(run) {
  try {
    return await run();
  } catch (err) {
    if (err instanceof TpccItemNotFound) throw problemError(PROBLEMS.itemNotFound, err.message);
    if (err instanceof TpccNotFound) throw problemError(PROBLEMS.notFound, err.message);
    if (err instanceof TransactionBusy) throw problemError(PROBLEMS.unavailable, err.message, { 'Retry-After': '1' });
    throw err;
  }
}

/** @param {ReturnType<import('../data/tpcc.js').createTpccData>} data */
export function createTpccHandlers(data) {
  return {
    newOrder: (request) => answer(() => data.newOrder(request.payload)),
    // h_amount rounded to the cent (spec: TpccPaymentInput.h_amount).
    payment: (request) => answer(() => data.payment(request.payload, Math.round(request.payload.h_amount * 100))),
    orderStatus: (request) => answer(() => data.orderStatus(request.payload)),
    delivery: (request) => answer(() => data.delivery(request.payload)),
    stockLevel: (request) => answer(() => data.stockLevel(request.payload)),
  };
}
