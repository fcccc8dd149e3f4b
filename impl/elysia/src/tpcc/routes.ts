// Routes of the tpcc API, as an Elysia plugin: one POST per TPC-C transaction, its body
// parsed by parseJsonBody (415/413/400) and validated by its schema (400 invalid-body);
// any other method on these paths is a 405.
import { Elysia } from 'elysia';
import { parseJsonBody } from '../body.ts';
import { methodNotAllowed } from '../problem.ts';
import type { TpccHandlers } from './handlers.ts';
import { deliveryInput, newOrderInput, orderStatusInput, paymentInput, stockLevelInput } from './schemas.ts';

export function tpccRoutes(handlers: TpccHandlers) {
  return new Elysia({ name: 'tpcc' })
    .post('/tpcc/new-order', ({ body }) => handlers.newOrder(body), { parse: parseJsonBody, body: newOrderInput })
    .post('/tpcc/payment', ({ body }) => handlers.payment(body), { parse: parseJsonBody, body: paymentInput })
    .post('/tpcc/order-status', ({ body }) => handlers.orderStatus(body), { parse: parseJsonBody, body: orderStatusInput })
    .post('/tpcc/delivery', ({ body }) => handlers.delivery(body), { parse: parseJsonBody, body: deliveryInput })
    .post('/tpcc/stock-level', ({ body }) => handlers.stockLevel(body), { parse: parseJsonBody, body: stockLevelInput })
    .all('/tpcc/new-order', methodNotAllowed('POST'))
    .all('/tpcc/payment', methodNotAllowed('POST'))
    .all('/tpcc/order-status', methodNotAllowed('POST'))
    .all('/tpcc/delivery', methodNotAllowed('POST'))
    .all('/tpcc/stock-level', methodNotAllowed('POST'));
}
