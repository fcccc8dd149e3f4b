// Data access for the tpcc API: TPC-C's five transactions (clauses 2.4-2.8), each one
// database transaction (src/data/mysql-transaction.js) of prepared statements
// (connection.execute: mysql2 prepares each once per connection). Order-Status and
// Stock-Level are READ ONLY transactions: one consistent snapshot, no locks.

import { decimalText, divideRounded, asMoney, toCents, toTenThousandths } from './tpcc-money.js';
import { DELIVERY, DISTRICTS, NEW_ORDER, ORDER_STATUS, PAYMENT, STOCK_LEVEL } from './tpcc-sql.js';
import { transactions } from './mysql-transaction.js';

/** A row the request names does not exist (404 not-found). */
export class TpccNotFound extends Error {}
/** TPC-C's rolled-back new order: an unused item id (404 item-not-found). */
export class TpccItemNotFound extends Error {}

/** 'YYYY-MM-DD HH:MM:SS' in UTC, taken once per transaction: what it writes and answers. */
export const timestamp = (date = new Date()) => date.toISOString().slice(0, 19).replace('T', ' ');

const address = (row, prefix) => ({
  street_1: row[`${prefix}_street_1`],
  street_2: row[`${prefix}_street_2`],
  city: row[`${prefix}_city`],
  state: row[`${prefix}_state`],
  zip: row[`${prefix}_zip`],
});

async function rows(connection, sql, params) {
  const [result] = await connection.execute(sql, params);
  return result;
}
const first = async (connection, sql, params) => (await rows(connection, sql, params))[0];

/** The customer by id, or (clause 2.5.2.2) of those with the last name, ordered by c_first, the one at ⌈n/2⌉. */
async function customerOf(connection, statements, w_id, d_id, { c_id, c_last }) {
  if (c_id !== undefined) {
    const customer = await first(connection, statements.customerById, [w_id, d_id, c_id]);
    if (customer === undefined) throw new TpccNotFound(`customer ${c_id} of warehouse ${w_id} district ${d_id} does not exist`);
    return customer;
  }
  const named = await rows(connection, statements.customersByName, [w_id, d_id, c_last]);
  if (named.length === 0) throw new TpccNotFound(`no customer of warehouse ${w_id} district ${d_id} is named ${c_last}`);
  return named[Math.ceil(named.length / 2) - 1];
}

/** @param {import('mysql2/promise').Pool} pool */
export function createTpccData(pool) {
  const transaction = transactions(pool);
  return {
    /** Clause 2.4.2. */
    newOrder({ w_id, d_id, c_id, items }) {
      return transaction(async (c) => {
        const now = timestamp();
        const warehouse = await first(c, NEW_ORDER.warehouse, [w_id]);
        if (warehouse === undefined) throw new TpccNotFound(`warehouse ${w_id} does not exist`);
        const district = await first(c, NEW_ORDER.district, [w_id, d_id]);
        if (district === undefined) throw new TpccNotFound(`district ${d_id} of warehouse ${w_id} does not exist`);
        await c.execute(NEW_ORDER.takeOrderId, [w_id, d_id]);
        const customer = await first(c, NEW_ORDER.customer, [w_id, d_id, c_id]);
        if (customer === undefined) throw new TpccNotFound(`customer ${c_id} of warehouse ${w_id} district ${d_id} does not exist`);
        const o_id = district.d_next_o_id;
        const allLocal = items.every((item) => item.ol_supply_w_id === w_id);
        await c.execute(NEW_ORDER.insertOrder, [o_id, d_id, w_id, c_id, now, items.length, allLocal ? 1 : 0]);
        await c.execute(NEW_ORDER.insertNewOrder, [o_id, d_id, w_id]);
        const lines = [];
        let totalCents = 0;
        for (const [index, { ol_i_id, ol_supply_w_id, ol_quantity }] of items.entries()) {
          const item = await first(c, NEW_ORDER.item, [ol_i_id]);
          // Clause 2.4.2.3: the whole transaction is rolled back.
          if (item === undefined) throw new TpccItemNotFound('Item number is not valid');
          const stock = await first(c, NEW_ORDER.stock[d_id], [ol_i_id, ol_supply_w_id]);
          if (stock === undefined) throw new TpccNotFound(`supplying warehouse ${ol_supply_w_id} does not exist`);
          const left = stock.s_quantity - ol_quantity;
          const s_quantity = stock.s_quantity >= ol_quantity + 10 ? left : left + 91;
          await c.execute(NEW_ORDER.updateStock, [s_quantity, ol_quantity, ol_supply_w_id === w_id ? 0 : 1, ol_i_id, ol_supply_w_id]);
          const priceCents = toCents(item.i_price);
          const amountCents = ol_quantity * priceCents;
          totalCents += amountCents;
          await c.execute(NEW_ORDER.insertLine, [o_id, d_id, w_id, index + 1, ol_i_id, ol_supply_w_id, ol_quantity, decimalText(amountCents), stock.dist_info]);
          const original = item.i_data.includes('ORIGINAL') && stock.s_data.includes('ORIGINAL');
          lines.push({ ol_supply_w_id, ol_i_id, i_name: item.i_name, ol_quantity, s_quantity, brand_generic: original ? 'B' : 'G', i_price: asMoney(priceCents), ol_amount: asMoney(amountCents) });
        }
        // Σ ol_amount × (1 − c_discount) × (1 + w_tax + d_tax), rates in ten-thousandths.
        const discount = toTenThousandths(customer.c_discount);
        const taxes = toTenThousandths(warehouse.w_tax) + toTenThousandths(district.d_tax);
        const total = divideRounded(totalCents * (10_000 - discount) * (10_000 + taxes), 100_000_000);
        return {
          w_id,
          d_id,
          c_id,
          c_last: customer.c_last,
          c_credit: customer.c_credit,
          c_discount: Number(customer.c_discount),
          w_tax: Number(warehouse.w_tax),
          d_tax: Number(district.d_tax),
          o_id,
          o_ol_cnt: items.length,
          o_entry_d: now,
          total_amount: asMoney(total),
          lines,
        };
      });
    },

    /** Clause 2.5.2; `amountCents` is h_amount rounded to the cent. */
    payment({ w_id, d_id, c_w_id, c_d_id, c_id, c_last }, amountCents) {
      return transaction(async (c) => {
        const now = timestamp();
        const amount = decimalText(amountCents);
        const [paid] = await c.execute(PAYMENT.payWarehouse, [amount, w_id]);
        if (paid.affectedRows === 0) throw new TpccNotFound(`warehouse ${w_id} does not exist`);
        const warehouse = await first(c, PAYMENT.warehouse, [w_id]);
        await c.execute(PAYMENT.payDistrict, [amount, w_id, d_id]);
        const district = await first(c, PAYMENT.district, [w_id, d_id]);
        const customer = await customerOf(c, PAYMENT, c_w_id, c_d_id, { c_id, c_last });
        let badCreditData = null;
        if (customer.c_credit === 'BC') {
          badCreditData = `${customer.c_id} ${c_d_id} ${c_w_id} ${d_id} ${w_id} ${amount}|${customer.c_data}`.slice(0, 500);
          await c.execute(PAYMENT.payCustomerBadCredit, [amount, amount, badCreditData, c_w_id, c_d_id, customer.c_id]);
        } else {
          await c.execute(PAYMENT.payCustomer, [amount, amount, c_w_id, c_d_id, customer.c_id]);
        }
        await c.execute(PAYMENT.insertHistory, [customer.c_id, c_d_id, c_w_id, d_id, w_id, now, amount, `${warehouse.w_name}    ${district.d_name}`]);
        return {
          w_id,
          d_id,
          c_w_id,
          c_d_id,
          h_amount: asMoney(amountCents),
          h_date: now,
          warehouse: address(warehouse, 'w'),
          district: address(district, 'd'),
          customer: {
            c_id: customer.c_id,
            c_first: customer.c_first,
            c_middle: customer.c_middle,
            c_last: customer.c_last,
            address: address(customer, 'c'),
            c_phone: customer.c_phone,
            c_since: customer.c_since,
            c_credit: customer.c_credit,
            c_credit_lim: asMoney(toCents(customer.c_credit_lim)),
            c_discount: Number(customer.c_discount),
            c_balance: asMoney(toCents(customer.c_balance) - amountCents),
            c_data: badCreditData === null ? null : badCreditData.slice(0, 200),
          },
        };
      });
    },

    /** Clause 2.6.2. */
    orderStatus({ w_id, d_id, c_id, c_last }) {
      return transaction(
        async (c) => {
          const customer = await customerOf(c, ORDER_STATUS, w_id, d_id, { c_id, c_last });
          const order = await first(c, ORDER_STATUS.lastOrder, [w_id, d_id, customer.c_id]);
          if (order === undefined) throw new TpccNotFound(`customer ${customer.c_id} of warehouse ${w_id} district ${d_id} has no order`);
          const lines = await rows(c, ORDER_STATUS.lines, [w_id, d_id, order.o_id]);
          return {
            w_id,
            d_id,
            customer: { c_id: customer.c_id, c_first: customer.c_first, c_middle: customer.c_middle, c_last: customer.c_last, c_balance: asMoney(toCents(customer.c_balance)) },
            order: {
              o_id: order.o_id,
              o_entry_d: order.o_entry_d,
              o_carrier_id: order.o_carrier_id,
              lines: lines.map((line) => ({
                ol_supply_w_id: line.ol_supply_w_id,
                ol_i_id: line.ol_i_id,
                ol_quantity: line.ol_quantity,
                ol_amount: asMoney(toCents(line.ol_amount)),
                ol_delivery_d: line.ol_delivery_d,
              })),
            },
          };
        },
        { readOnly: true },
      );
    },

    /** Clause 2.7.4, executed at once: the oldest undelivered order of each district. */
    delivery({ w_id, o_carrier_id }) {
      return transaction(async (c) => {
        const now = timestamp();
        if ((await first(c, DELIVERY.warehouse, [w_id])) === undefined) throw new TpccNotFound(`warehouse ${w_id} does not exist`);
        const districts = [];
        for (let d_id = 1; d_id <= DISTRICTS; d_id++) {
          const oldest = await first(c, DELIVERY.oldestNewOrder, [w_id, d_id]);
          if (oldest === undefined) {
            districts.push({ d_id, o_id: null });
            continue;
          }
          const o_id = oldest.no_o_id;
          await c.execute(DELIVERY.deleteNewOrder, [w_id, d_id, o_id]);
          const order = await first(c, DELIVERY.orderCustomer, [w_id, d_id, o_id]);
          await c.execute(DELIVERY.setCarrier, [o_carrier_id, w_id, d_id, o_id]);
          await c.execute(DELIVERY.deliverLines, [now, w_id, d_id, o_id]);
          const { total } = await first(c, DELIVERY.linesTotal, [w_id, d_id, o_id]);
          await c.execute(DELIVERY.creditCustomer, [String(total), w_id, d_id, order.o_c_id]);
          districts.push({ d_id, o_id });
        }
        return { w_id, o_carrier_id, ol_delivery_d: now, districts };
      });
    },

    /** Clause 2.8.2: distinct items of the district's last 20 orders whose stock is under the threshold. */
    stockLevel({ w_id, d_id, threshold }) {
      return transaction(
        async (c) => {
          const district = await first(c, STOCK_LEVEL.nextOrderId, [w_id, d_id]);
          if (district === undefined) throw new TpccNotFound(`warehouse ${w_id} does not exist`);
          const next = district.d_next_o_id;
          const { low_stock } = await first(c, STOCK_LEVEL.lowStock, [w_id, w_id, d_id, next - 20, next, threshold]);
          return { w_id, d_id, threshold, low_stock: Number(low_stock) };
        },
        { readOnly: true },
      );
    },
  };
}
