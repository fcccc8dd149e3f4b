// joi schemas of the tpcc request bodies (spec/openapi.yaml: TpccNewOrderInput,
// TpccPaymentInput, TpccOrderStatusInput, TpccDeliveryInput, TpccStockLevelInput), used by
// the routes' `validate.payload`: TPC-C's ranges, no unknown member, nothing converted
// (a string "1" is not a warehouse number).

import Joi from 'joi';

const INT_MAX = 2_147_483_647;
const integer = (min, max) => Joi.number().integer().min(min).max(max);
const warehouse = integer(1, INT_MAX);
const district = integer(1, 10);
const customerId = integer(1, 3000);
// Upper-case letters only (TPC-C's syllables): nothing else can reach a statement.
const customerLast = Joi.string().pattern(/^[A-Z]{1,16}$/, 'upper-case letters, at most 16');

export const newOrder = Joi.object({
  w_id: warehouse.required(),
  d_id: district.required(),
  c_id: customerId.required(),
  items: Joi.array()
    .items(Joi.object({ ol_i_id: integer(1, INT_MAX).required(), ol_supply_w_id: warehouse.required(), ol_quantity: integer(1, 10).required() }))
    .min(5)
    .max(15)
    .required(),
}).required();

// Payment and Order-Status name the customer by exactly one of c_id and c_last.
export const payment = Joi.object({
  w_id: warehouse.required(),
  d_id: district.required(),
  c_w_id: warehouse.required(),
  c_d_id: district.required(),
  c_id: customerId,
  c_last: customerLast,
  h_amount: Joi.number().min(1).max(5000).required(),
})
  .xor('c_id', 'c_last')
  .required();

export const orderStatus = Joi.object({
  w_id: warehouse.required(),
  d_id: district.required(),
  c_id: customerId,
  c_last: customerLast,
})
  .xor('c_id', 'c_last')
  .required();

export const delivery = Joi.object({
  w_id: warehouse.required(),
  o_carrier_id: integer(1, 10).required(),
}).required();

export const stockLevel = Joi.object({
  w_id: warehouse.required(),
  d_id: district.required(),
  threshold: integer(10, 20).required(),
}).required();

export const VALIDATION = Object.freeze({ convert: false });
