// Data access for the tpcc API: TPC-C's five transactions (clauses 2.4-2.8), each one
// database transaction on one pooled connection, every statement prepared
// (connection.execute: mysql2 prepares it once per connection and reuses it).
//
// Isolation: REPEATABLE READ (InnoDB's default, also set on every connection the pool
// opens), and every row that is written is first read with FOR UPDATE, so two new orders
// on one district serialise on the district row and get consecutive order ids. Order-Status
// and Stock-Level are READ ONLY transactions (one consistent snapshot, no locks).
// A deadlock or lock-wait timeout rolls back and runs the whole transaction again, at most
// ATTEMPTS times in all; then TpccBusy (a 503). Money is exact: see tpcc-money.js.
import { DB_TIMEOUT_MS, DatabaseTimeout } from '../db-timeouts.js';
import { cents, centsText, money, roundDiv, tenThousandths } from './tpcc-money.js';


const ATTEMPTS = 3;
const DEADLOCK = 1213;
const LOCK_WAIT_TIMEOUT = 1205;

/** A row the request names does not exist (404 not-found). */
export class TpccNotFound extends Error {}
/** TPC-C's rolled-back new order: an unused item id (404 item-not-found). */
export class TpccItemNotFound extends Error {}
/** Deadlocks or lock waits on every attempt (503 unavailable). */
export class TpccBusy extends Error {}

const DISTRICTS = 10;
const stockDist = (d) => `s_dist_${String(d).padStart(2, '0')}`;

const SQL = {
  warehouseTax: 'SELECT w_tax FROM warehouse WHERE w_id = ?',
  districtForUpdate: 'SELECT d_tax, d_next_o_id FROM district WHERE d_w_id = ? AND d_id = ? FOR UPDATE',
  nextOrderId: 'UPDATE district SET d_next_o_id = d_next_o_id + 1 WHERE d_w_id = ? AND d_id = ?',
  customerForOrder: 'SELECT c_discount, c_last, c_credit FROM customer WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?',
  insertOrder: 'INSERT INTO orders (o_id, o_d_id, o_w_id, o_c_id, o_entry_d, o_carrier_id, o_ol_cnt, o_all_local) VALUES (?, ?, ?, ?, ?, NULL, ?, ?)',
  insertNewOrder: 'INSERT INTO new_order (no_o_id, no_d_id, no_w_id) VALUES (?, ?, ?)',
  item: 'SELECT i_price, i_name, i_data FROM item WHERE i_id = ?',
  // One statement per district: the column s_dist_<d_id> is part of the text.
  stockForUpdate: Array.from({ length: DISTRICTS + 1 }, (_, d) =>
    d === 0 ? null : `SELECT s_quantity, s_data, ${stockDist(d)} AS dist_info FROM stock WHERE s_i_id = ? AND s_w_id = ? FOR UPDATE`,
  ),
  updateStock: 'UPDATE stock SET s_quantity = ?, s_ytd = s_ytd + ?, s_order_cnt = s_order_cnt + 1, s_remote_cnt = s_remote_cnt + ? WHERE s_i_id = ? AND s_w_id = ?',
  insertOrderLine:
    'INSERT INTO order_line (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_i_id, ol_supply_w_id, ol_delivery_d, ol_quantity, ol_amount, ol_dist_info) VALUES (?, ?, ?, ?, ?, ?, NULL, ?, ?, ?)',

  payWarehouse: 'UPDATE warehouse SET w_ytd = w_ytd + ? WHERE w_id = ?',
  warehouse: 'SELECT w_name, w_street_1, w_street_2, w_city, w_state, w_zip FROM warehouse WHERE w_id = ?',
  payDistrict: 'UPDATE district SET d_ytd = d_ytd + ? WHERE d_w_id = ? AND d_id = ?',
  district: 'SELECT d_name, d_street_1, d_street_2, d_city, d_state, d_zip FROM district WHERE d_w_id = ? AND d_id = ?',
  customerById: `SELECT c_id, c_first, c_middle, c_last, c_street_1, c_street_2, c_city, c_state, c_zip, c_phone, c_since,
      c_credit, c_credit_lim, c_discount, c_balance, c_data FROM customer WHERE c_w_id = ? AND c_d_id = ? AND c_id = ? FOR UPDATE`,
  customersByName: `SELECT c_id, c_first, c_middle, c_last, c_street_1, c_street_2, c_city, c_state, c_zip, c_phone, c_since,
      c_credit, c_credit_lim, c_discount, c_balance, c_data FROM customer WHERE c_w_id = ? AND c_d_id = ? AND c_last = ?
      ORDER BY c_first, c_id FOR UPDATE`,
  payCustomer: 'UPDATE customer SET c_balance = c_balance - ?, c_ytd_payment = c_ytd_payment + ?, c_payment_cnt = c_payment_cnt + 1 WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?',
  payCustomerBadCredit:
    'UPDATE customer SET c_balance = c_balance - ?, c_ytd_payment = c_ytd_payment + ?, c_payment_cnt = c_payment_cnt + 1, c_data = ? WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?',
  insertHistory: 'INSERT INTO history (h_c_id, h_c_d_id, h_c_w_id, h_d_id, h_w_id, h_date, h_amount, h_data) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',

  statusById: 'SELECT c_id, c_first, c_middle, c_last, c_balance FROM customer WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?',
  statusByName: 'SELECT c_id, c_first, c_middle, c_last, c_balance FROM customer WHERE c_w_id = ? AND c_d_id = ? AND c_last = ? ORDER BY c_first, c_id',
  lastOrder: 'SELECT o_id, o_entry_d, o_carrier_id FROM orders WHERE o_w_id = ? AND o_d_id = ? AND o_c_id = ? ORDER BY o_id DESC LIMIT 1',
  orderLines: 'SELECT ol_supply_w_id, ol_i_id, ol_quantity, ol_amount, ol_delivery_d FROM order_line WHERE ol_w_id = ? AND ol_d_id = ? AND ol_o_id = ? ORDER BY ol_number',

  warehouseExists: 'SELECT 1 AS found FROM warehouse WHERE w_id = ?',
  oldestNewOrder: 'SELECT no_o_id FROM new_order WHERE no_w_id = ? AND no_d_id = ? ORDER BY no_o_id LIMIT 1 FOR UPDATE',
  deleteNewOrder: 'DELETE FROM new_order WHERE no_w_id = ? AND no_d_id = ? AND no_o_id = ?',
  orderCustomer: 'SELECT o_c_id FROM orders WHERE o_w_id = ? AND o_d_id = ? AND o_id = ? FOR UPDATE',
  setCarrier: 'UPDATE orders SET o_carrier_id = ? WHERE o_w_id = ? AND o_d_id = ? AND o_id = ?',
  deliverLines: 'UPDATE order_line SET ol_delivery_d = ? WHERE ol_w_id = ? AND ol_d_id = ? AND ol_o_id = ?',
  linesTotal: 'SELECT COALESCE(SUM(ol_amount), 0) AS total FROM order_line WHERE ol_w_id = ? AND ol_d_id = ? AND ol_o_id = ?',
  creditDelivery: 'UPDATE customer SET c_balance = c_balance + ?, c_delivery_cnt = c_delivery_cnt + 1 WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?',

  nextOrderIdOf: 'SELECT d_next_o_id FROM district WHERE d_w_id = ? AND d_id = ?',
  lowStock: `SELECT COUNT(DISTINCT s.s_i_id) AS low_stock
      FROM order_line ol JOIN stock s ON s.s_w_id = ? AND s.s_i_id = ol.ol_i_id
      WHERE ol.ol_w_id = ? AND ol.ol_d_id = ? AND ol.ol_o_id >= ? AND ol.ol_o_id < ? AND s.s_quantity < ?`,
};

/** 'YYYY-MM-DD HH:MM:SS' in UTC: the DATETIME the transaction writes and answers. */
export const timestamp = (date = new Date()) => date.toISOString().slice(0, 19).replace('T', ' ');

const address = (row, prefix) => ({
  street_1: row[`${prefix}_street_1`],
  street_2: row[`${prefix}_street_2`],
  city: row[`${prefix}_city`],
  state: row[`${prefix}_state`],
  zip: row[`${prefix}_zip`],
});

/** Clause 2.5.2.2: of the customers with that last name, ordered by c_first, the one at position ⌈n/2⌉. */
const middle = (rows) => rows[Math.ceil(rows.length / 2) - 1];

/** pool.getConnection() within timeoutMs, else DatabaseTimeout; a connection that comes later goes back to the pool. */
function acquire(pool, timeoutMs) {
  return new Promise((resolve, reject) => {
    let late = false;
    const timer = setTimeout(() => {
      late = true;
      reject(new DatabaseTimeout(`no database connection within ${timeoutMs} ms`));
    }, timeoutMs);
    pool.getConnection().then(
      (connection) => {
        clearTimeout(timer);
        if (late) connection.release();
        else resolve(connection);
      },
      (err) => {
        clearTimeout(timer);
        reject(err);
      },
    );
  });
}

/** @param {import('mysql2/promise').Pool} pool */
export function createTpccData(pool, timeoutMs = DB_TIMEOUT_MS) {
  // Every connection the pool opens runs its transactions at REPEATABLE READ, whatever the server's default.
  // (The event hands over the callback-style connection; the SET is queued before its first use.)
  pool.on('connection', (connection) => {
    connection.query({ sql: 'SET SESSION TRANSACTION ISOLATION LEVEL REPEATABLE READ', timeout: timeoutMs }, (err) => {
      if (err) connection.destroy();
    });
  });

  /**
   * Runs work(connection) as one transaction; retried on deadlock and lock-wait timeout.
   * A deadline covers it from the pool checkout on (mysql2 has no acquire timeout, and its
   * per-statement timeout does not cover a PREPARE): past it the request is a 503 at once
   * (src/db-timeouts.js) and the connection is destroyed, so the server rolls back.
   */
  async function transaction(work, { readOnly = false } = {}) {
    for (let attempt = 1; ; attempt++) {
      const started = Date.now();
      const connection = await acquire(pool, timeoutMs);
      let timer;
      const deadline = new Promise((_, reject) => {
        timer = setTimeout(() => reject(new DatabaseTimeout(`the transaction passed its ${timeoutMs} ms deadline`)), Math.max(0, timeoutMs - (Date.now() - started)));
      });
      let healthy = true;
      try {
        const body = (async () => {
          await connection.query(readOnly ? 'START TRANSACTION READ ONLY' : 'START TRANSACTION');
          const result = await work(connection);
          await connection.query('COMMIT');
          return result;
        })();
        body.catch(() => {}); // past the deadline its failure is nobody's: the request was answered
        return await Promise.race([body, deadline]);
      } catch (err) {
        // Past the deadline a ROLLBACK would wait as long as the database: the connection goes instead.
        healthy = !(err instanceof DatabaseTimeout) && (await connection.query('ROLLBACK').then(() => true, () => false));
        if (err.errno !== DEADLOCK && err.errno !== LOCK_WAIT_TIMEOUT) throw err;
        if (attempt >= ATTEMPTS) throw new TpccBusy(`the transaction met a ${err.errno === DEADLOCK ? 'deadlock' : 'lock wait timeout'} ${ATTEMPTS} times`);
      } finally {
        clearTimeout(timer);
        // A connection whose rollback failed (or never ran) is in an unknown state: it is closed, not reused.
        if (healthy) connection.release();
        else connection.destroy();
      }
    }
  }

  const one = async (connection, sql, params) => (await connection.execute(sql, params))[0][0];

  async function customerByIdOrName(connection, byId, byName, w, d, input) {
    if (input.c_id !== undefined) {
      const row = await one(connection, byId, [w, d, input.c_id]);
      if (!row) throw new TpccNotFound(`customer ${input.c_id} of warehouse ${w} district ${d} does not exist`);
      return row;
    }
    const [rows] = await connection.execute(byName, [w, d, input.c_last]);
    if (rows.length === 0) throw new TpccNotFound(`no customer of warehouse ${w} district ${d} is named ${input.c_last}`);
    return middle(rows);
  }

  return {
    /** Clause 2.4.2. */
    newOrder({ w_id, d_id, c_id, items }) {
      return transaction(async (c) => {
        const now = timestamp();
        const warehouse = await one(c, SQL.warehouseTax, [w_id]);
        if (!warehouse) throw new TpccNotFound(`warehouse ${w_id} does not exist`);
        const district = await one(c, SQL.districtForUpdate, [w_id, d_id]);
        if (!district) throw new TpccNotFound(`district ${d_id} of warehouse ${w_id} does not exist`);
        await c.execute(SQL.nextOrderId, [w_id, d_id]);
        const customer = await one(c, SQL.customerForOrder, [w_id, d_id, c_id]);
        if (!customer) throw new TpccNotFound(`customer ${c_id} of warehouse ${w_id} district ${d_id} does not exist`);
        const o_id = district.d_next_o_id;
        const allLocal = items.every((line) => line.ol_supply_w_id === w_id) ? 1 : 0;
        await c.execute(SQL.insertOrder, [o_id, d_id, w_id, c_id, now, items.length, allLocal]);
        await c.execute(SQL.insertNewOrder, [o_id, d_id, w_id]);
        const lines = [];
        let sum = 0;
        for (const [index, { ol_i_id, ol_supply_w_id, ol_quantity }] of items.entries()) {
          const item = await one(c, SQL.item, [ol_i_id]);
          if (!item) throw new TpccItemNotFound('Item number is not valid');
          const stock = await one(c, SQL.stockForUpdate[d_id], [ol_i_id, ol_supply_w_id]);
          if (!stock) throw new TpccNotFound(`supplying warehouse ${ol_supply_w_id} does not exist`);
          const quantity = stock.s_quantity >= ol_quantity + 10 ? stock.s_quantity - ol_quantity : stock.s_quantity - ol_quantity + 91;
          await c.execute(SQL.updateStock, [quantity, ol_quantity, ol_supply_w_id === w_id ? 0 : 1, ol_i_id, ol_supply_w_id]);
          const price = cents(item.i_price);
          const amount = ol_quantity * price;
          sum += amount;
          await c.execute(SQL.insertOrderLine, [o_id, d_id, w_id, index + 1, ol_i_id, ol_supply_w_id, ol_quantity, centsText(amount), stock.dist_info]);
          lines.push({
            ol_supply_w_id,
            ol_i_id,
            i_name: item.i_name,
            ol_quantity,
            s_quantity: quantity,
            brand_generic: item.i_data.includes('ORIGINAL') && stock.s_data.includes('ORIGINAL') ? 'B' : 'G',
            i_price: money(price),
            ol_amount: money(amount),
          });
        }
        const discount = tenThousandths(customer.c_discount);
        const taxes = tenThousandths(warehouse.w_tax) + tenThousandths(district.d_tax);
        const total = roundDiv(sum * (10_000 - discount) * (10_000 + taxes), 100_000_000);
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
          total_amount: money(total),
          lines,
        };
      });
    },

    /** Clause 2.5.2. `amount` is in cents. */
    payment({ w_id, d_id, c_w_id, c_d_id, c_id, c_last }, amount) {
      return transaction(async (c) => {
        const now = timestamp();
        const amountText = centsText(amount);
        const [paid] = await c.execute(SQL.payWarehouse, [amountText, w_id]);
        if (paid.affectedRows === 0) throw new TpccNotFound(`warehouse ${w_id} does not exist`);
        const warehouse = await one(c, SQL.warehouse, [w_id]);
        await c.execute(SQL.payDistrict, [amountText, w_id, d_id]);
        const district = await one(c, SQL.district, [w_id, d_id]);
        const customer = await customerByIdOrName(c, SQL.customerById, SQL.customersByName, c_w_id, c_d_id, { c_id, c_last });
        let data = null;
        if (customer.c_credit === 'BC') {
          data = `${customer.c_id} ${c_d_id} ${c_w_id} ${d_id} ${w_id} ${amountText}|${customer.c_data}`.slice(0, 500);
          await c.execute(SQL.payCustomerBadCredit, [amountText, amountText, data, c_w_id, c_d_id, customer.c_id]);
        } else {
          await c.execute(SQL.payCustomer, [amountText, amountText, c_w_id, c_d_id, customer.c_id]);
        }
        await c.execute(SQL.insertHistory, [customer.c_id, c_d_id, c_w_id, d_id, w_id, now, amountText, `${warehouse.w_name}    ${district.d_name}`]);
        return {
          w_id,
          d_id,
          c_w_id,
          c_d_id,
          h_amount: money(amount),
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
            c_credit_lim: money(cents(customer.c_credit_lim)),
            c_discount: Number(customer.c_discount),
            c_balance: money(cents(customer.c_balance) - amount),
            c_data: data === null ? null : data.slice(0, 200),
          },
        };
      });
    },

    /** Clause 2.6.2. */
    orderStatus({ w_id, d_id, c_id, c_last }) {
      return transaction(
        async (c) => {
          const customer = await customerByIdOrName(c, SQL.statusById, SQL.statusByName, w_id, d_id, { c_id, c_last });
          const order = await one(c, SQL.lastOrder, [w_id, d_id, customer.c_id]);
          if (!order) throw new TpccNotFound(`customer ${customer.c_id} of warehouse ${w_id} district ${d_id} has no order`);
          const [lines] = await c.execute(SQL.orderLines, [w_id, d_id, order.o_id]);
          return {
            w_id,
            d_id,
            customer: { c_id: customer.c_id, c_first: customer.c_first, c_middle: customer.c_middle, c_last: customer.c_last, c_balance: money(cents(customer.c_balance)) },
            order: {
              o_id: order.o_id,
              o_entry_d: order.o_entry_d,
              o_carrier_id: order.o_carrier_id,
              lines: lines.map((l) => ({ ol_supply_w_id: l.ol_supply_w_id, ol_i_id: l.ol_i_id, ol_quantity: l.ol_quantity, ol_amount: money(cents(l.ol_amount)), ol_delivery_d: l.ol_delivery_d })),
            },
          };
        },
        { readOnly: true },
      );
    },

    /** Clause 2.7.4, executed at once. */
    delivery({ w_id, o_carrier_id }) {
      return transaction(async (c) => {
        const now = timestamp();
        if (!(await one(c, SQL.warehouseExists, [w_id]))) throw new TpccNotFound(`warehouse ${w_id} does not exist`);
        const districts = [];
        for (let d_id = 1; d_id <= DISTRICTS; d_id++) {
          const next = await one(c, SQL.oldestNewOrder, [w_id, d_id]);
          if (!next) {
            districts.push({ d_id, o_id: null });
            continue;
          }
          const o_id = next.no_o_id;
          await c.execute(SQL.deleteNewOrder, [w_id, d_id, o_id]);
          const order = await one(c, SQL.orderCustomer, [w_id, d_id, o_id]);
          await c.execute(SQL.setCarrier, [o_carrier_id, w_id, d_id, o_id]);
          await c.execute(SQL.deliverLines, [now, w_id, d_id, o_id]);
          const { total } = await one(c, SQL.linesTotal, [w_id, d_id, o_id]);
          await c.execute(SQL.creditDelivery, [String(total), w_id, d_id, order.o_c_id]);
          districts.push({ d_id, o_id });
        }
        return { w_id, o_carrier_id, ol_delivery_d: now, districts };
      });
    },

    /** Clause 2.8.2. */
    stockLevel({ w_id, d_id, threshold }) {
      return transaction(
        async (c) => {
          const district = await one(c, SQL.nextOrderIdOf, [w_id, d_id]);
          if (!district) throw new TpccNotFound(`warehouse ${w_id} does not exist`);
          const next = district.d_next_o_id;
          const { low_stock } = await one(c, SQL.lowStock, [w_id, w_id, d_id, next - 20, next, threshold]);
          return { w_id, d_id, threshold, low_stock: Number(low_stock) };
        },
        { readOnly: true },
      );
    },
  };
}
