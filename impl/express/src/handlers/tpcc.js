// Handlers of the tpcc API: validate the body (joi), run the transaction in the data layer,
// answer the terminal's output; the data layer's refusals become problems. Express 5 sends
// anything else to the error handler (a logged 500).
import { TpccBusy, TpccItemNotFound, TpccNotFound } from '../data/tpcc.js';
import { PROBLEMS, sendProblem } from '../problem.js';
import { VALIDATION, delivery, newOrder, orderStatus, payment, stockLevel } from '../schemas/tpcc.js';
import { hasPrototypeMember, PROTOTYPE_MEMBER } from '../json-body.js';

/** The validated body, or null after answering 400 invalid-body. */
function validBody(schema, req, res) {
  const { value, error } = schema.validate(req.body, VALIDATION);
  if (!error && !hasPrototypeMember(req.body)) return value;
  sendProblem(res, PROBLEMS.invalidBody, error?.message ?? PROTOTYPE_MEMBER);
  return null;
}

/** Runs one transaction and answers it, or the problem it was refused with. */
function transaction(schema, run) {
  return async (req, res) => {
    const body = validBody(schema, req, res);
    if (body === null) return;
    try {
      res.json(await run(body));
    } catch (err) {
      if (err instanceof TpccItemNotFound) return sendProblem(res, PROBLEMS.itemNotFound, err.message);
      if (err instanceof TpccNotFound) return sendProblem(res, PROBLEMS.notFound, err.message);
      if (err instanceof TpccBusy) {
        res.set('Retry-After', '1');
        return sendProblem(res, PROBLEMS.unavailable, err.message);
      }
      throw err;
    }
  };
}

export function createTpccHandlers(data) {
  return {
    newOrder: transaction(newOrder, (body) => data.newOrder(body)),
    // The amount in cents, rounded to the nearest cent (spec: TpccPaymentInput.h_amount).
    payment: transaction(payment, (body) => data.payment(body, Math.round(body.h_amount * 100))),
    orderStatus: transaction(orderStatus, (body) => data.orderStatus(body)),
    delivery: transaction(delivery, (body) => data.delivery(body)),
    stockLevel: transaction(stockLevel, (body) => data.stockLevel(body)),
  };
}
