// The oracle: TPC-C's five transactions (clauses 2.4-2.8) over an in-memory copy of the
// seed, written from the spec and the decisions in spec/README.md, independently of any
// implementation. The suite's expected answers and stored rows come from here, never from
// the database under test. Rows keep the database's text forms (DECIMAL as '12.34',
// DATETIME as 'YYYY-MM-DD HH:MM:SS'), so they compare with what SqlRecords reads.
import { centsText, parseCents, parseRate, roundDiv } from '../dataset/money.ts';
import {
  DISTRICTS_PER_WAREHOUSE,
  type Customer,
  type District,
  type Item,
  type Order,
  type OrderLine,
  type Stock,
  type TpccDataset,
  type Warehouse,
} from '../dataset/model.ts';

export interface OrderLineInput {
  readonly ol_i_id: number;
  readonly ol_supply_w_id: number;
  readonly ol_quantity: number;
}
export interface NewOrderInput {
  readonly w_id: number;
  readonly d_id: number;
  readonly c_id: number;
  readonly items: readonly OrderLineInput[];
}
/** The customer by id or by last name (exactly one). */
export type CustomerKey = { readonly c_id: number } | { readonly c_last: string };
export type PaymentInput = {
  readonly w_id: number;
  readonly d_id: number;
  readonly c_w_id: number;
  readonly c_d_id: number;
  readonly h_amount: number;
} & CustomerKey;
export type OrderStatusInput = { readonly w_id: number; readonly d_id: number } & CustomerKey;
export interface DeliveryInput {
  readonly w_id: number;
  readonly o_carrier_id: number;
}
export interface StockLevelInput {
  readonly w_id: number;
  readonly d_id: number;
  readonly threshold: number;
}

/**
 * A transaction's timestamp is the implementation's clock: the oracle stamps rows and
 * answers with a matcher that accepts any timestamp string ({$type: 'string'}).
 */
export const ANY_TIME = Object.freeze({ $type: 'string' }) as unknown as string;

/** A refusal: the problem type the API must answer with (nothing is stored). */
export class Refused extends Error {
  readonly problem: 'not-found' | 'item-not-found';
  constructor(problem: 'not-found' | 'item-not-found') {
    super(problem);
    this.problem = problem;
  }
}

const money = (cents: number) => cents / 100;
const distColumn = (d: number) => `s_dist_${String(d).padStart(2, '0')}` as keyof Stock;
const key = (...parts: number[]) => parts.join('/');

export class TpccModel {
  readonly warehouses = new Map<number, Warehouse>();
  readonly districts = new Map<string, District>();
  readonly customers = new Map<string, Customer>();
  readonly items = new Map<number, Item>();
  readonly stock = new Map<string, Stock>();
  readonly orders = new Map<string, Order>();
  readonly lines = new Map<string, OrderLine[]>();
  /** Undelivered order ids per district, ascending. */
  readonly newOrders = new Map<string, number[]>();
  /** Rows appended to history by payments (the seed's are not kept). */
  readonly history: { h_c_id: number; h_c_d_id: number; h_c_w_id: number; h_d_id: number; h_w_id: number; h_amount: string; h_data: string }[] = [];

  /** A fresh copy of the seed: transactions change the copy, never the seed. */
  constructor(data: TpccDataset) {
    const t = structuredClone(data.tables);
    for (const w of t.warehouse) this.warehouses.set(w.w_id, w);
    for (const d of t.district) this.districts.set(key(d.d_w_id, d.d_id), d);
    for (const c of t.customer) this.customers.set(key(c.c_w_id, c.c_d_id, c.c_id), c);
    for (const i of t.item) this.items.set(i.i_id, i);
    for (const s of t.stock) this.stock.set(key(s.s_w_id, s.s_i_id), s);
    for (const o of t.orders) this.orders.set(key(o.o_w_id, o.o_d_id, o.o_id), o);
    for (const l of t.order_line) {
      const k = key(l.ol_w_id, l.ol_d_id, l.ol_o_id);
      this.lines.set(k, [...(this.lines.get(k) ?? []), l]);
    }
    for (const n of t.new_order) {
      const k = key(n.no_w_id, n.no_d_id);
      this.newOrders.set(k, [...(this.newOrders.get(k) ?? []), n.no_o_id]);
    }
  }

  district(w: number, d: number): District {
    const row = this.districts.get(key(w, d));
    if (!row) throw new Refused('not-found');
    return row;
  }

  customer(w: number, d: number, c: number): Customer {
    const row = this.customers.get(key(w, d, c));
    if (!row) throw new Refused('not-found');
    return row;
  }

  stockOf(w: number, i: number): Stock {
    const row = this.stock.get(key(w, i));
    if (!row) throw new Refused('not-found');
    return row;
  }

  order(w: number, d: number, o: number): Order | undefined {
    return this.orders.get(key(w, d, o));
  }

  linesOf(w: number, d: number, o: number): readonly OrderLine[] {
    return this.lines.get(key(w, d, o)) ?? [];
  }

  undelivered(w: number, d: number): readonly number[] {
    return this.newOrders.get(key(w, d)) ?? [];
  }

  /** The customers of a district with that last name, ordered by c_first (byte order), then c_id. */
  byLastName(w: number, d: number, last: string): Customer[] {
    return [...this.customers.values()]
      .filter((c) => c.c_w_id === w && c.c_d_id === d && c.c_last === last)
      .sort((a, b) => (a.c_first < b.c_first ? -1 : a.c_first > b.c_first ? 1 : a.c_id - b.c_id));
  }

  /** Clause 2.5.2.2: by id, or the customer at position ⌈n/2⌉ of those with the last name. */
  select(w: number, d: number, who: CustomerKey): Customer {
    if ('c_id' in who) return this.customer(w, d, who.c_id);
    const matches = this.byLastName(w, d, who.c_last);
    const chosen = matches[Math.ceil(matches.length / 2) - 1];
    if (!chosen) throw new Refused('not-found');
    return chosen;
  }

  /** Clause 2.4.2. Refused: nothing changes. */
  newOrder(input: NewOrderInput, now: string = ANY_TIME) {
    const warehouse = this.warehouses.get(input.w_id);
    if (!warehouse) throw new Refused('not-found');
    const district = this.district(input.w_id, input.d_id);
    const customer = this.customer(input.w_id, input.d_id, input.c_id);
    // Check every line before changing anything: a refused order leaves no trace.
    for (const line of input.items) {
      if (!this.items.has(line.ol_i_id)) throw new Refused('item-not-found');
      this.stockOf(line.ol_supply_w_id, line.ol_i_id);
    }
    const o_id = district.d_next_o_id;
    district.d_next_o_id += 1;
    const allLocal = input.items.every((l) => l.ol_supply_w_id === input.w_id);
    this.orders.set(key(input.w_id, input.d_id, o_id), {
      o_id,
      o_d_id: input.d_id,
      o_w_id: input.w_id,
      o_c_id: input.c_id,
      o_entry_d: now,
      o_carrier_id: null,
      o_ol_cnt: input.items.length,
      o_all_local: allLocal ? 1 : 0,
    });
    this.newOrders.set(key(input.w_id, input.d_id), [...this.undelivered(input.w_id, input.d_id), o_id]);
    const rows: OrderLine[] = [];
    const lines = input.items.map((line, index) => {
      const item = this.items.get(line.ol_i_id)!;
      const stock = this.stockOf(line.ol_supply_w_id, line.ol_i_id);
      stock.s_quantity = stock.s_quantity >= line.ol_quantity + 10 ? stock.s_quantity - line.ol_quantity : stock.s_quantity - line.ol_quantity + 91;
      stock.s_ytd += line.ol_quantity;
      stock.s_order_cnt += 1;
      if (line.ol_supply_w_id !== input.w_id) stock.s_remote_cnt += 1;
      const amount = line.ol_quantity * parseCents(item.i_price);
      rows.push({
        ol_o_id: o_id,
        ol_d_id: input.d_id,
        ol_w_id: input.w_id,
        ol_number: index + 1,
        ol_i_id: line.ol_i_id,
        ol_supply_w_id: line.ol_supply_w_id,
        ol_delivery_d: null,
        ol_quantity: line.ol_quantity,
        ol_amount: centsText(amount),
        ol_dist_info: String(stock[distColumn(input.d_id)]),
      });
      return {
        ol_supply_w_id: line.ol_supply_w_id,
        ol_i_id: line.ol_i_id,
        i_name: item.i_name,
        ol_quantity: line.ol_quantity,
        s_quantity: stock.s_quantity,
        brand_generic: item.i_data.includes('ORIGINAL') && stock.s_data.includes('ORIGINAL') ? 'B' : 'G',
        i_price: money(parseCents(item.i_price)),
        ol_amount: money(amount),
      };
    });
    this.lines.set(key(input.w_id, input.d_id, o_id), rows);
    const sum = rows.reduce((s, r) => s + parseCents(r.ol_amount), 0);
    const total = roundDiv(sum * (10_000 - parseRate(customer.c_discount)) * (10_000 + parseRate(warehouse.w_tax) + parseRate(district.d_tax)), 100_000_000);
    return {
      w_id: input.w_id,
      d_id: input.d_id,
      c_id: input.c_id,
      c_last: customer.c_last,
      c_credit: customer.c_credit,
      c_discount: Number(customer.c_discount),
      w_tax: Number(warehouse.w_tax),
      d_tax: Number(district.d_tax),
      o_id,
      o_ol_cnt: input.items.length,
      o_entry_d: now,
      total_amount: money(total),
      lines,
    };
  }

  /** Clause 2.5.2. */
  payment(input: PaymentInput, now: string = ANY_TIME) {
    const warehouse = this.warehouses.get(input.w_id);
    if (!warehouse) throw new Refused('not-found');
    const district = this.district(input.w_id, input.d_id);
    this.district(input.c_w_id, input.c_d_id);
    const customer = this.select(input.c_w_id, input.c_d_id, input);
    const amount = Math.round(input.h_amount * 100);
    warehouse.w_ytd = centsText(parseCents(warehouse.w_ytd) + amount);
    district.d_ytd = centsText(parseCents(district.d_ytd) + amount);
    customer.c_balance = centsText(parseCents(customer.c_balance) - amount);
    customer.c_ytd_payment = centsText(parseCents(customer.c_ytd_payment) + amount);
    customer.c_payment_cnt += 1;
    if (customer.c_credit === 'BC') {
      customer.c_data = `${customer.c_id} ${input.c_d_id} ${input.c_w_id} ${input.d_id} ${input.w_id} ${centsText(amount)}|${customer.c_data}`.slice(0, 500);
    }
    this.history.push({
      h_c_id: customer.c_id,
      h_c_d_id: input.c_d_id,
      h_c_w_id: input.c_w_id,
      h_d_id: input.d_id,
      h_w_id: input.w_id,
      h_amount: centsText(amount),
      h_data: `${warehouse.w_name}    ${district.d_name}`,
    });
    const address = (row: object, prefix: string) => {
      const r = row as Record<string, unknown>;
      return {
        street_1: r[`${prefix}_street_1`],
        street_2: r[`${prefix}_street_2`],
        city: r[`${prefix}_city`],
        state: r[`${prefix}_state`],
        zip: r[`${prefix}_zip`],
      };
    };
    return {
      w_id: input.w_id,
      d_id: input.d_id,
      c_w_id: input.c_w_id,
      c_d_id: input.c_d_id,
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
        c_credit_lim: money(parseCents(customer.c_credit_lim)),
        c_discount: Number(customer.c_discount),
        c_balance: money(parseCents(customer.c_balance)),
        c_data: customer.c_credit === 'BC' ? customer.c_data.slice(0, 200) : null,
      },
    };
  }

  /** Clause 2.6.2: the customer's last order (highest o_id) and its lines. */
  orderStatus(input: OrderStatusInput) {
    const customer = this.select(input.w_id, input.d_id, input);
    const mine = [...this.orders.values()].filter((o) => o.o_w_id === input.w_id && o.o_d_id === input.d_id && o.o_c_id === customer.c_id);
    const order = mine.sort((a, b) => b.o_id - a.o_id)[0];
    if (!order) throw new Refused('not-found');
    return {
      w_id: input.w_id,
      d_id: input.d_id,
      customer: {
        c_id: customer.c_id,
        c_first: customer.c_first,
        c_middle: customer.c_middle,
        c_last: customer.c_last,
        c_balance: money(parseCents(customer.c_balance)),
      },
      order: {
        o_id: order.o_id,
        o_entry_d: order.o_entry_d,
        o_carrier_id: order.o_carrier_id,
        lines: this.linesOf(input.w_id, input.d_id, order.o_id).map((l) => ({
          ol_supply_w_id: l.ol_supply_w_id,
          ol_i_id: l.ol_i_id,
          ol_quantity: l.ol_quantity,
          ol_amount: money(parseCents(l.ol_amount)),
          ol_delivery_d: l.ol_delivery_d,
        })),
      },
    };
  }

  /** Clause 2.7.4: the oldest undelivered order of each district. */
  delivery(input: DeliveryInput, now: string = ANY_TIME) {
    if (!this.warehouses.has(input.w_id)) throw new Refused('not-found');
    const districts = [];
    for (let d = 1; d <= DISTRICTS_PER_WAREHOUSE; d++) {
      const pending = this.undelivered(input.w_id, d);
      const o_id = pending[0];
      if (o_id === undefined) {
        districts.push({ d_id: d, o_id: null });
        continue;
      }
      this.newOrders.set(key(input.w_id, d), pending.slice(1));
      const order = this.order(input.w_id, d, o_id)!;
      order.o_carrier_id = input.o_carrier_id;
      let sum = 0;
      for (const l of this.linesOf(input.w_id, d, o_id)) {
        l.ol_delivery_d = now;
        sum += parseCents(l.ol_amount);
      }
      const customer = this.customer(input.w_id, d, order.o_c_id);
      customer.c_balance = centsText(parseCents(customer.c_balance) + sum);
      customer.c_delivery_cnt += 1;
      districts.push({ d_id: d, o_id });
    }
    return { w_id: input.w_id, o_carrier_id: input.o_carrier_id, ol_delivery_d: now, districts };
  }

  /** Clause 2.8.2: distinct items of the last 20 orders' lines whose stock here is below the threshold. */
  stockLevel(input: StockLevelInput) {
    if (!this.warehouses.has(input.w_id)) throw new Refused('not-found');
    const next = this.district(input.w_id, input.d_id).d_next_o_id;
    const low = new Set<number>();
    for (let o = Math.max(1, next - 20); o < next; o++) {
      for (const l of this.linesOf(input.w_id, input.d_id, o)) {
        if (this.stockOf(input.w_id, l.ol_i_id).s_quantity < input.threshold) low.add(l.ol_i_id);
      }
    }
    return { w_id: input.w_id, d_id: input.d_id, threshold: input.threshold, low_stock: low.size };
  }
}
