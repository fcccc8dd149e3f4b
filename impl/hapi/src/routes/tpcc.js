// The tpcc API's routes as a Hapi plugin: one POST per TPC-C transaction (body → joi →
// handler), and a 405 for every other method on the same paths (src/problem.js).

import { methodNotAllowed, validationFailed } from '../problem.js';
import { VALIDATION, delivery, newOrder, orderStatus, payment, stockLevel } from '../schemas/tpcc.js';

// 16 KiB: the largest valid body, a new order of 15 lines, is under 1 KiB. JSON only, and a
// missing Content-Type is not taken for JSON (Hapi's default would).
const JSON_BODY = { maxBytes: 16 * 1024, allow: 'application/json', defaultContentType: 'application/octet-stream', output: 'data', parse: true };

// [path, joi schema of the body, handler name]
const TRANSACTIONS = [
  ['/tpcc/new-order', newOrder, 'newOrder'],
  ['/tpcc/payment', payment, 'payment'],
  ['/tpcc/order-status', orderStatus, 'orderStatus'],
  ['/tpcc/delivery', delivery, 'delivery'],
  ['/tpcc/stock-level', stockLevel, 'stockLevel'],
];

export const tpccRoutes = {
  name: 'fairbench-tpcc',
  register(server, { handlers }) {
    server.route(
      TRANSACTIONS.flatMap(([path, schema, name]) => [
        { method: 'POST', path, options: { payload: JSON_BODY, validate: { payload: schema, options: VALIDATION, failAction: validationFailed }, handler: handlers[name] } },
        { ...methodNotAllowed('POST'), path },
      ]),
    );
  },
};
