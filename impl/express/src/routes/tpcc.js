// Routes of the tpcc API -> handlers: one POST per TPC-C transaction; other methods are 405.
// Bodies: application/json only (415), at most 16 KiB (413), JSON objects and arrays (400 otherwise).
import { Router } from 'express';

import { jsonBody } from '../json-body.js';
import { methodNotAllowed } from '../problem.js';

// The largest valid body, a new order of 15 lines, is under 1 KiB.
const body = jsonBody({ limit: '16kb', strict: false });

export function tpccRoutes(handlers) {
  const router = Router({ caseSensitive: true, strict: true });
  router.route('/tpcc/new-order').post(body, handlers.newOrder).all(methodNotAllowed('POST'));
  router.route('/tpcc/payment').post(body, handlers.payment).all(methodNotAllowed('POST'));
  router.route('/tpcc/order-status').post(body, handlers.orderStatus).all(methodNotAllowed('POST'));
  router.route('/tpcc/delivery').post(body, handlers.delivery).all(methodNotAllowed('POST'));
  router.route('/tpcc/stock-level').post(body, handlers.stockLevel).all(methodNotAllowed('POST'));
  return router;
}
