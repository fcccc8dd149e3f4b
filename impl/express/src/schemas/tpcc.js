// joi schemas of the tpcc request bodies (spec/openapi.yaml: TpccNewOrderInput,
// TpccPaymentInput, TpccOrderStatusInput, TpccDeliveryInput, TpccStockLevelInput): TPC-C's
// ranges, no unknown member, no type conversion (a string "1" is not a warehouse number).
import Joi from 'joi';

const INT_MAX = 2_147_483_647;
const warehouseId = Joi.number().integer().min(1).max(INT_MAX);
const districtId = Joi.number().integer().min(1).max(10);
const customerId = Joi.number().integer().min(1).max(3000);
// Upper-case letters only (TPC-C's syllables): nothing else can reach a statement.
const lastName = Joi.string().pattern(/^[A-Z]{1,16}$/, 'upper-case letters');

const orderLine = Joi.object({
  ol_i_id: Joi.number().integer().min(1).max(INT_MAX).required(),
  ol_supply_w_id: warehouseId.required(),
  ol_quantity: Joi.number().integer().min(1).max(10).required(),
});

export const newOrder = Joi.object({
  w_id: warehouseId.required(),
  d_id: districtId.required(),
  c_id: customerId.required(),
  items: Joi.array().items(orderLine.required()).min(5).max(15).required(),
}).required();

export const payment = Joi.object({
  w_id: warehouseId.required(),
  d_id: districtId.required(),
  c_w_id: warehouseId.required(),
  c_d_id: districtId.required(),
  c_id: customerId,
  c_last: lastName,
  h_amount: Joi.number().min(1).max(5000).required(),
})
  .xor('c_id', 'c_last')
  .required();

export const orderStatus = Joi.object({
  w_id: warehouseId.required(),
  d_id: districtId.required(),
  c_id: customerId,
  c_last: lastName,
})
  .xor('c_id', 'c_last')
  .required();

export const delivery = Joi.object({
  w_id: warehouseId.required(),
  o_carrier_id: Joi.number().integer().min(1).max(10).required(),
}).required();

export const stockLevel = Joi.object({
  w_id: warehouseId.required(),
  d_id: districtId.required(),
  threshold: Joi.number().integer().min(10).max(20).required(),
}).required();

export const VALIDATION = Object.freeze({ convert: false, abortEarly: true });
