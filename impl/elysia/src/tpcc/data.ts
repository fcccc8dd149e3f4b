// Data access for the tpcc API: TPC-C's five transactions (clauses 2.4-2.8), each one
// database transaction on one pooled connection, every statement prepared (execute).
//
// Isolation: REPEATABLE READ (InnoDB's default, also set on every connection the pool
// opens); every row that is written is first read FOR UPDATE, so new orders on one district
// serialise on the district row and get consecutive order ids. Order-Status and Stock-Level
// are READ ONLY transactions (one snapshot, no locks). A deadlock or lock-wait timeout rolls
// back and runs the whole transaction again, ATTEMPTS times in all; then TpccBusy (a 503).
import type { Pool, PoolConnection, RowDataPacket } from 'mysql2/promise';
import { DB_TIMEOUT_MS, DatabaseTimeout } from '../db-timeouts.ts';
import { cents, centsText, money, roundDiv, tenThousandths } from './money.ts';
import { SQL } from './sql.ts';
import type { DeliveryInput, NewOrderInput, OrderStatusInput, PaymentInput, StockLevelInput } from './schemas.ts';

const ATTEMPTS = 3;
const DEADLOCK = 1213;
const LOCK_WAIT_TIMEOUT = 1205;
const DISTRICTS = 10;

/** A row the request names does not exist (404 not-found). */
export class TpccNotFound extends Error {}
/** TPC-C's rolled-back new order: an unused item id (404 item-not-found). */
export class TpccItemNotFound extends Error {}
/** Deadlocks or lock waits on every attempt (503 unavailable). */
export class TpccBusy extends Error {}

type Row = RowDataPacket & Record<string, any>;

/** 'YYYY-MM-DD HH:MM:SS' in UTC: the DATETIME the transaction writes and answers. */
export const timestamp = (date = new Date()): string => date.toISOString().slice(0, 19).replace('T', ' ');

const address = (row: Row, prefix: string) => ({
  street_1: row[`${prefix}_street_1`],
  street_2: row[`${prefix}_street_2`],
  city: row[`${prefix}_city`],
  state: row[`${prefix}_state`],
  zip: row[`${prefix}_zip`],
});

async function one(c: PoolConnection, sql: string, params: unknown[]): Promise<Row | undefined> {
  const [rows] = await c.execute<Row[]>(sql, params as never);
  return rows[0];
}

/** Clause 2.5.2.2: by id, or of the customers with that last name ordered by c_first, the one at position ⌈n/2⌉. */
async function customer(c: PoolConnection, byId: string, byName: string, w: number, d: number, who: { c_id?: number; c_last?: string }): Promise<Row> {
  if (who.c_id !== undefined) {
    const row = await one(c, byId, [w, d, who.c_id]);
    if (!row) throw new TpccNotFound(`customer ${who.c_id} of warehouse ${w} district ${d} does not exist`);
    return row;
  }
  const [rows] = await c.execute<Row[]>(byName, [w, d, who.c_last!]);
  const chosen = rows[Math.ceil(rows.length / 2) - 1];
  if (!chosen) throw new TpccNotFound(`no customer of warehouse ${w} district ${d} is named ${who.c_last}`);
  return chosen;
}

export type TpccData = ReturnType<typeof createTpccData>;

/** pool.getConnection() within timeoutMs, else DatabaseTimeout; a connection that comes later goes back to the pool. */
function acquire(pool: Pool, timeoutMs: number): Promise<PoolConnection> {
  return new Promise((resolve, reject) => {
    let late = false;
    const timer = setTimeout(() => {
      late = true;
      reject(new DatabaseTimeout(`no database connection within ${timeoutMs} ms`));
    }, timeoutMs);
    pool.getConnection().then(
      (c) => {
        clearTimeout(timer);
        if (late) c.release();
        else resolve(c);
      },
      (err: unknown) => {
        clearTimeout(timer);
        reject(err);
      },
    );
  });
}

export function createTpccData(pool: Pool, timeoutMs = DB_TIMEOUT_MS) {
  // Every connection the pool opens runs its transactions at REPEATABLE READ, whatever the
  // server's default (the event hands over the callback-style connection; the SET runs first).
  pool.on('connection', (connection) => {
    connection.query('SET SESSION TRANSACTION ISOLATION LEVEL REPEATABLE READ', (err: unknown) => {
      if (err) connection.destroy();
    });
  });

  /**
   * Runs work(connection) as one transaction; retried on deadlock and lock-wait timeout.
   * A deadline covers it from the pool checkout on (mysql2 has no acquire timeout, and its
   * per-statement timeout does not cover a PREPARE): past it the request is a 503 at once
   * (../db-timeouts.ts) and the connection is destroyed, so the server rolls back.
   */
  async function transaction<T>(work: (c: PoolConnection) => Promise<T>, readOnly = false): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      const started = Date.now();
      const c = await acquire(pool, timeoutMs);
      let timer: ReturnType<typeof setTimeout> | undefined;
      const deadline = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new DatabaseTimeout(`the transaction passed its ${timeoutMs} ms deadline`)), Math.max(0, timeoutMs - (Date.now() - started)));
      });
      let healthy = true;
      try {
        const body = (async () => {
          await c.query(readOnly ? 'START TRANSACTION READ ONLY' : 'START TRANSACTION');
          const result = await work(c);
          await c.query('COMMIT');
          return result;
        })();
        body.catch(() => {}); // past the deadline its failure is nobody's: the request was answered
        return await Promise.race([body, deadline]);
      } catch (err) {
        // Past the deadline a ROLLBACK would wait as long as the database: the connection goes instead.
        healthy = !(err instanceof DatabaseTimeout) && (await c.query('ROLLBACK').then(() => true, () => false));
        const errno = (err as { errno?: number }).errno;
        if (errno !== DEADLOCK && errno !== LOCK_WAIT_TIMEOUT) throw err;
        if (attempt >= ATTEMPTS) throw new TpccBusy(`the transaction met a ${errno === DEADLOCK ? 'deadlock' : 'lock wait timeout'} ${ATTEMPTS} times`);
      } finally {
        clearTimeout(timer);
        // A connection whose rollback failed (or never ran) is in an unknown state: closed, not reused.
        if (healthy) c.release();
        else c.destroy();
      }
    }
  }

  return {
    /** Clause 2.4.2. */
    newOrder({ w_id, d_id, c_id, items }: NewOrderInput) {
      return transaction(async (c) => {
        const now = timestamp();
        const warehouse = await one(c, SQL.warehouseTax, [w_id]);
        if (!warehouse) throw new TpccNotFound(`warehouse ${w_id} does not exist`);
        const district = await one(c, SQL.districtForUpdate, [w_id, d_id]);
        if (!district) throw new TpccNotFound(`district ${d_id} of warehouse ${w_id} does not exist`);
        await c.execute(SQL.nextOrderId, [w_id, d_id]);
        const cust = await one(c, SQL.customerForOrder, [w_id, d_id, c_id]);
        if (!cust) throw new TpccNotFound(`customer ${c_id} of warehouse ${w_id} district ${d_id} does not exist`);
        const o_id: number = district.d_next_o_id;
        const allLocal = items.every((line) => line.ol_supply_w_id === w_id) ? 1 : 0;
        await c.execute(SQL.insertOrder, [o_id, d_id, w_id, c_id, now, items.length, allLocal]);
        await c.execute(SQL.insertNewOrder, [o_id, d_id, w_id]);
        const lines = [];
        let sum = 0;
        for (const [index, { ol_i_id, ol_supply_w_id, ol_quantity }] of items.entries()) {
          const item = await one(c, SQL.item, [ol_i_id]);
          if (!item) throw new TpccItemNotFound('Item number is not valid');
          const stock = await one(c, SQL.stockForUpdate(d_id), [ol_i_id, ol_supply_w_id]);
          if (!stock) throw new TpccNotFound(`supplying warehouse ${ol_supply_w_id} does not exist`);
          const quantity: number = stock.s_quantity >= ol_quantity + 10 ? stock.s_quantity - ol_quantity : stock.s_quantity - ol_quantity + 91;
          await c.execute(SQL.updateStock, [quantity, ol_quantity, ol_supply_w_id === w_id ? 0 : 1, ol_i_id, ol_supply_w_id]);
          const price = cents(item.i_price);
          const amount = ol_quantity * price;
          sum += amount;
          await c.execute(SQL.insertOrderLine, [o_id, d_id, w_id, index + 1, ol_i_id, ol_supply_w_id, ol_quantity, centsText(amount), stock.dist_info]);
          lines.push({
            ol_supply_w_id,
            ol_i_id,
            i_name: item.i_name as string,
            ol_quantity,
            s_quantity: quantity,
            brand_generic: item.i_data.includes('ORIGINAL') && stock.s_data.includes('ORIGINAL') ? 'B' : 'G',
            i_price: money(price),
            ol_amount: money(amount),
          });
        }
        const discount = tenThousandths(cust.c_discount);
        const taxes = tenThousandths(warehouse.w_tax) + tenThousandths(district.d_tax);
        const total = roundDiv(sum * (10_000 - discount) * (10_000 + taxes), 100_000_000);
        return {
          w_id,
          d_id,
          c_id,
          c_last: cust.c_last as string,
          c_credit: cust.c_credit as string,
          c_discount: Number(cust.c_discount),
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
    payment({ w_id, d_id, c_w_id, c_d_id, ...who }: PaymentInput, amount: number) {
      return transaction(async (c) => {
        const now = timestamp();
        const amountText = centsText(amount);
        const [paid] = await c.execute(SQL.payWarehouse, [amountText, w_id]);
        if ((paid as { affectedRows: number }).affectedRows === 0) throw new TpccNotFound(`warehouse ${w_id} does not exist`);
        const warehouse = (await one(c, SQL.warehouse, [w_id]))!;
        await c.execute(SQL.payDistrict, [amountText, w_id, d_id]);
        const district = (await one(c, SQL.district, [w_id, d_id]))!;
        const cust = await customer(c, SQL.customerById, SQL.customersByName, c_w_id, c_d_id, who);
        let data: string | null = null;
        if (cust.c_credit === 'BC') {
          data = `${cust.c_id} ${c_d_id} ${c_w_id} ${d_id} ${w_id} ${amountText}|${cust.c_data}`.slice(0, 500);
          await c.execute(SQL.payCustomerBadCredit, [amountText, amountText, data, c_w_id, c_d_id, cust.c_id]);
        } else {
          await c.execute(SQL.payCustomer, [amountText, amountText, c_w_id, c_d_id, cust.c_id]);
        }
        await c.execute(SQL.insertHistory, [cust.c_id, c_d_id, c_w_id, d_id, w_id, now, amountText, `${warehouse.w_name}    ${district.d_name}`]);
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
            c_id: cust.c_id as number,
            c_first: cust.c_first as string,
            c_middle: cust.c_middle as string,
            c_last: cust.c_last as string,
            address: address(cust, 'c'),
            c_phone: cust.c_phone as string,
            c_since: cust.c_since as string,
            c_credit: cust.c_credit as string,
            c_credit_lim: money(cents(cust.c_credit_lim)),
            c_discount: Number(cust.c_discount),
            c_balance: money(cents(cust.c_balance) - amount),
            c_data: data === null ? null : data.slice(0, 200),
          },
        };
      });
    },

    /** Clause 2.6.2. */
    orderStatus({ w_id, d_id, ...who }: OrderStatusInput) {
      return transaction(async (c) => {
        const cust = await customer(c, SQL.statusById, SQL.statusByName, w_id, d_id, who);
        const order = await one(c, SQL.lastOrder, [w_id, d_id, cust.c_id]);
        if (!order) throw new TpccNotFound(`customer ${cust.c_id} of warehouse ${w_id} district ${d_id} has no order`);
        const [lines] = await c.execute<Row[]>(SQL.orderLines, [w_id, d_id, order.o_id]);
        return {
          w_id,
          d_id,
          customer: { c_id: cust.c_id as number, c_first: cust.c_first as string, c_middle: cust.c_middle as string, c_last: cust.c_last as string, c_balance: money(cents(cust.c_balance)) },
          order: {
            o_id: order.o_id as number,
            o_entry_d: order.o_entry_d as string,
            o_carrier_id: order.o_carrier_id as number | null,
            lines: lines.map((l) => ({ ol_supply_w_id: l.ol_supply_w_id as number, ol_i_id: l.ol_i_id as number, ol_quantity: l.ol_quantity as number, ol_amount: money(cents(l.ol_amount)), ol_delivery_d: l.ol_delivery_d as string | null })),
          },
        };
      }, true);
    },

    /** Clause 2.7.4, executed at once. */
    delivery({ w_id, o_carrier_id }: DeliveryInput) {
      return transaction(async (c) => {
        const now = timestamp();
        if (!(await one(c, SQL.warehouseExists, [w_id]))) throw new TpccNotFound(`warehouse ${w_id} does not exist`);
        const districts: { d_id: number; o_id: number | null }[] = [];
        for (let d_id = 1; d_id <= DISTRICTS; d_id++) {
          const next = await one(c, SQL.oldestNewOrder, [w_id, d_id]);
          if (!next) {
            districts.push({ d_id, o_id: null });
            continue;
          }
          const o_id: number = next.no_o_id;
          await c.execute(SQL.deleteNewOrder, [w_id, d_id, o_id]);
          const order = (await one(c, SQL.orderCustomer, [w_id, d_id, o_id]))!;
          await c.execute(SQL.setCarrier, [o_carrier_id, w_id, d_id, o_id]);
          await c.execute(SQL.deliverLines, [now, w_id, d_id, o_id]);
          const { total } = (await one(c, SQL.linesTotal, [w_id, d_id, o_id]))!;
          await c.execute(SQL.creditDelivery, [String(total), w_id, d_id, order.o_c_id]);
          districts.push({ d_id, o_id });
        }
        return { w_id, o_carrier_id, ol_delivery_d: now, districts };
      });
    },

    /** Clause 2.8.2. */
    stockLevel({ w_id, d_id, threshold }: StockLevelInput) {
      return transaction(async (c) => {
        const district = await one(c, SQL.nextOrderIdOf, [w_id, d_id]);
        if (!district) throw new TpccNotFound(`warehouse ${w_id} does not exist`);
        const next: number = district.d_next_o_id;
        const counted = (await one(c, SQL.lowStock, [w_id, w_id, d_id, next - 20, next, threshold]))!;
        return { w_id, d_id, threshold, low_stock: Number(counted.low_stock) };
      }, true);
    },
  };
}
