// Handlers of the tpcc API: run the transaction in the data layer and answer the terminal's
// output; the data layer's refusals become problems. The body is already validated by the
// route's schema (routes.ts) when a handler runs.
import { databaseUnavailable } from '../db-timeouts.ts';
import { PROBLEMS, ProblemError } from '../problem.ts';
import { TpccBusy, TpccItemNotFound, TpccNotFound, type TpccData } from './data.ts';
import type { DeliveryInput, NewOrderInput, OrderStatusInput, PaymentInput, StockLevelInput } from './schemas.ts';

/** The refusals of a transaction as problems; anything else stays an error (a 500). */
async function answer<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof TpccItemNotFound) throw new ProblemError(PROBLEMS.itemNotFound, err.message);
    if (err instanceof TpccNotFound) throw new ProblemError(PROBLEMS.notFound, err.message);
    if (err instanceof TpccBusy) throw new ProblemError(PROBLEMS.unavailable, err.message, { 'retry-after': '1' });
    if (databaseUnavailable(err)) throw new ProblemError(PROBLEMS.unavailable, 'the database did not answer in time; retry later', { 'retry-after': '1' });
    throw err;
  }
}

export type TpccHandlers = ReturnType<typeof createTpccHandlers>;

export function createTpccHandlers(data: TpccData) {
  return {
    newOrder: (body: NewOrderInput) => answer(() => data.newOrder(body)),
    // The amount in cents, rounded to the nearest cent (spec: TpccPaymentInput.h_amount).
    payment: (body: PaymentInput) => answer(() => data.payment(body, Math.round(body.h_amount * 100))),
    orderStatus: (body: OrderStatusInput) => answer(() => data.orderStatus(body)),
    delivery: (body: DeliveryInput) => answer(() => data.delivery(body)),
    stockLevel: (body: StockLevelInput) => answer(() => data.stockLevel(body)),
  };
}
