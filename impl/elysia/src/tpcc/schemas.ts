// The five inputs as Elysia (TypeBox) schemas, from spec/openapi.yaml: TPC-C's ranges, no
// unknown member. Integers are t.Number({ multipleOf: 1 }): Elysia's t.Integer also takes
// numeric strings ("1"), which the contract refuses.
import { t, type Static } from 'elysia';

const INT_MAX = 2_147_483_647;
const integer = (minimum: number, maximum: number) => t.Number({ minimum, maximum, multipleOf: 1 });
const warehouseId = integer(1, INT_MAX);
const districtId = integer(1, 10);
const customerId = integer(1, 3000);
// Upper-case letters only (TPC-C's syllables): nothing else can reach a statement.
const lastName = t.String({ pattern: '^[A-Z]{1,16}$' });
const closed = { additionalProperties: false } as const;

export const newOrderInput = t.Object(
  {
    w_id: warehouseId,
    d_id: districtId,
    c_id: customerId,
    items: t.Array(t.Object({ ol_i_id: integer(1, INT_MAX), ol_supply_w_id: warehouseId, ol_quantity: integer(1, 10) }, closed), { minItems: 5, maxItems: 15 }),
  },
  closed,
);

/** The customer by exactly one of c_id and c_last. */
const byCustomer = <P extends Record<string, typeof warehouseId | typeof districtId | ReturnType<typeof t.Number>>>(properties: P) =>
  t.Union([t.Object({ ...properties, c_id: customerId }, closed), t.Object({ ...properties, c_last: lastName }, closed)]);

export const paymentInput = byCustomer({ w_id: warehouseId, d_id: districtId, c_w_id: warehouseId, c_d_id: districtId, h_amount: t.Number({ minimum: 1, maximum: 5000 }) });
export const orderStatusInput = byCustomer({ w_id: warehouseId, d_id: districtId });
export const deliveryInput = t.Object({ w_id: warehouseId, o_carrier_id: integer(1, 10) }, closed);
export const stockLevelInput = t.Object({ w_id: warehouseId, d_id: districtId, threshold: integer(10, 20) }, closed);

export type NewOrderInput = Static<typeof newOrderInput>;
export type PaymentInput = Static<typeof paymentInput>;
export type OrderStatusInput = Static<typeof orderStatusInput>;
export type DeliveryInput = Static<typeof deliveryInput>;
export type StockLevelInput = Static<typeof stockLevelInput>;
