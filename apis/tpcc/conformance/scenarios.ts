// The named values the tpcc flows use ({{no.local.request}}, {{os.byName.response}}, …):
// requests chosen from the seed to reach every branch of the transactions (a stock that
// wraps, a brand-name line, a repeated item, remote supply, bad credit, a last name shared
// by several customers), and what the oracle (model.ts) says each must answer and store.
import { lastName } from '../dataset/random.js';
import type { Customer, TpccDataset } from '../dataset/model.ts';
import { ANY_TIME, TpccModel, type NewOrderInput, type OrderLineInput } from './model.ts';

const pick = <T>(values: Iterable<T>, test: (v: T) => boolean, what: string): T => {
  for (const v of values) if (test(v)) return v;
  throw new Error(`the conformance seed has no ${what}: choose another scale or seed`);
};

/** The stored row a db: step expects: the columns that matter, in the database's text forms. */
const row = <T extends object>(r: T, ...columns: (keyof T)[]) => Object.fromEntries(columns.map((c) => [c, r[c]]));

function orderStatus(data: TpccDataset) {
  const m = new TpccModel(data);
  const { customersPerDistrict: customers, newOrdersPerDistrict } = data.scale;
  const delivered = customers - newOrdersPerDistrict;
  const undeliveredOwner = m.order(1, 1, customers)!.o_c_id;
  const deliveredOwner = m.order(1, 2, 1)!.o_c_id;
  // Last names shared by an odd and by an even number of customers of one district (⌈n/2⌉ is then not n/2 + 1/2 rounding away).
  const groups = new Map<string, Customer[]>();
  for (const c of m.customers.values()) if (c.c_w_id === 2) groups.set(`${c.c_d_id}/${c.c_last}`, [...(groups.get(`${c.c_d_id}/${c.c_last}`) ?? []), c]);
  const odd = pick(groups.values(), (g) => g.length >= 3 && g.length % 2 === 1, 'last name shared by an odd number (3+) of customers');
  const even = pick(groups.values(), (g) => g.length >= 2 && g.length % 2 === 0, 'last name shared by an even number of customers');
  const ask = (request: Parameters<TpccModel['orderStatus']>[0]) => ({ request, response: m.orderStatus(request) });
  const unusedName = pick(
    Array.from({ length: 1000 }, (_, i) => lastName(999 - i)),
    (n) => m.byLastName(1, 1, n).length === 0,
    'unused last name',
  );
  if (delivered < 1) throw new Error('the conformance scale needs delivered orders');
  return {
    byId: ask({ w_id: 1, d_id: 1, c_id: undeliveredOwner }),
    delivered: ask({ w_id: 1, d_id: 2, c_id: deliveredOwner }),
    byNameOdd: ask({ w_id: 2, d_id: odd[0]!.c_d_id, c_last: odd[0]!.c_last }),
    byNameEven: ask({ w_id: 2, d_id: even[0]!.c_d_id, c_last: even[0]!.c_last }),
    unknownCustomer: { request: { w_id: 1, d_id: 1, c_id: customers + 1 } },
    unknownName: { request: { w_id: 1, d_id: 1, c_last: unusedName } },
    unknownWarehouse: { request: { w_id: data.scale.warehouses + 1, d_id: 1, c_id: 1 } },
  };
}

function stockLevel(data: TpccDataset) {
  const m = new TpccModel(data);
  const ask = (w_id: number, d_id: number, threshold: number) => ({ request: { w_id, d_id, threshold }, response: m.stockLevel({ w_id, d_id, threshold }) });
  return {
    w1d1: ask(1, 1, 15),
    w2d5: ask(2, 5, 20),
    w1d3: ask(1, 3, 10),
    unknownWarehouse: { request: { w_id: data.scale.warehouses + 1, d_id: 1, threshold: 12 } },
  };
}

/** Items of warehouse w whose stock and data meet a test, the first few by id, never one already used. */
function itemsWhere(m: TpccModel, w: number, count: number, used: Set<number>, test: (i: number) => boolean, what: string): number[] {
  const found: number[] = [];
  for (const i of m.items.keys()) {
    if (found.length === count) break;
    if (!used.has(i) && test(i)) found.push(i);
  }
  if (found.length < count) throw new Error(`the conformance seed has fewer than ${count} items that are ${what}`);
  for (const i of found) used.add(i);
  return found;
}

function newOrder(data: TpccDataset) {
  const { items, customersPerDistrict: customers, warehouses } = data.scale;
  const seed = new TpccModel(data);
  const used = new Set<number>();
  const [wrap] = itemsWhere(seed, 1, 1, used, (i) => seed.stockOf(1, i).s_quantity < 20, 'low in stock (below 20)');
  const [brand] = itemsWhere(
    seed,
    1,
    1,
    used,
    (i) => seed.items.get(i)!.i_data.includes('ORIGINAL') && seed.stockOf(1, i).s_data.includes('ORIGINAL') && seed.stockOf(1, i).s_quantity >= 13,
    'brand-name (ORIGINAL in item and stock)',
  );
  const [r1, r2, r3] = itemsWhere(seed, 1, 3, used, (i) => seed.stockOf(1, i).s_quantity >= 30, 'well stocked');
  const line = (ol_i_id: number, ol_quantity: number, ol_supply_w_id = 1): OrderLineInput => ({ ol_i_id, ol_supply_w_id, ol_quantity });

  // A local order: a wrapping stock (+91), a brand-name line, an item ordered twice.
  const local: NewOrderInput = { w_id: 1, d_id: 2, c_id: 5, items: [line(wrap!, 10), line(brand!, 3), line(r1!, 5), line(r2!, 1), line(r1!, 2), line(r3!, 7)] };
  const m = new TpccModel(data);
  const localResponse = m.newOrder(local);
  const o = localResponse.o_id;
  const stock = (w: number, i: number) => row(m.stockOf(w, i), 's_quantity', 's_ytd', 's_order_cnt', 's_remote_cnt');
  const lineRow = (n: number) => row(m.linesOf(1, 2, o)[n - 1]!, 'ol_i_id', 'ol_supply_w_id', 'ol_delivery_d', 'ol_quantity', 'ol_amount', 'ol_dist_info');

  // A remote order: two of its five lines come from warehouse 2.
  const remote: NewOrderInput = { w_id: 1, d_id: 3, c_id: 7, items: [line(r1!, 4), line(r2!, 2, 2), line(r3!, 6), line(wrap!, 1, 2), line(brand!, 9)] };
  const mr = new TpccModel(data);
  const remoteResponse = mr.newOrder(remote);

  const fiveLines = [line(r1!, 1), line(r2!, 1), line(r3!, 1), line(wrap!, 1), line(brand!, 1)];
  return {
    keys: { wrap, brand, r1, r2, r3 },
    local: {
      request: local,
      response: localResponse,
      rows: {
        district: { d_next_o_id: o + 1 },
        order: row(m.order(1, 2, o)!, 'o_c_id', 'o_entry_d', 'o_carrier_id', 'o_ol_cnt', 'o_all_local'),
        line1: lineRow(1),
        line5: lineRow(5),
        wrapStock: stock(1, wrap!),
        brandStock: stock(1, brand!),
        repeatedStock: stock(1, r1!),
      },
    },
    remote: {
      request: remote,
      response: remoteResponse,
      rows: {
        order: { o_all_local: 0, o_ol_cnt: 5 },
        remoteStock: row(mr.stockOf(2, r2!), 's_quantity', 's_ytd', 's_order_cnt', 's_remote_cnt'),
        localStock: row(mr.stockOf(1, r1!), 's_quantity', 's_ytd', 's_order_cnt', 's_remote_cnt'),
      },
    },
    // TPC-C's 1%: the last item id is unused (clause 2.4.1.5): the whole order rolls back.
    rollback: { request: { w_id: 1, d_id: 2, c_id: 5, items: [...fiveLines, line(items + 1, 1)] } },
    unknownCustomer: { request: { w_id: 1, d_id: 2, c_id: customers + 1, items: fiveLines } },
    unknownWarehouse: { request: { w_id: warehouses + 1, d_id: 2, c_id: 1, items: fiveLines } },
    unknownSupplier: { request: { w_id: 1, d_id: 2, c_id: 1, items: [...fiveLines.slice(0, 4), line(r1!, 1, warehouses + 1)] } },
    nextOrderId: customers + 1,
  };
}

function payment(data: TpccDataset) {
  const seed = new TpccModel(data);
  const good = pick(seed.customers.values(), (c) => c.c_w_id === 1 && c.c_d_id === 1 && c.c_credit === 'GC', 'good-credit customer');
  const bad = pick(seed.customers.values(), (c) => c.c_w_id === 2 && c.c_d_id === 4 && c.c_credit === 'BC', 'bad-credit customer');
  const pay = (request: Parameters<TpccModel['payment']>[0]) => {
    const m = new TpccModel(data);
    const response = m.payment(request);
    const customer = m.select(request.c_w_id, request.c_d_id, request);
    return {
      request,
      response,
      rows: {
        warehouse: row(m.warehouses.get(request.w_id)!, 'w_ytd'),
        district: row(m.district(request.w_id, request.d_id), 'd_ytd'),
        customer: row(customer, 'c_balance', 'c_ytd_payment', 'c_payment_cnt', 'c_data'),
        customerKey: { c_w_id: customer.c_w_id, c_d_id: customer.c_d_id, c_id: customer.c_id },
        history: { ...m.history[0]!, h_date: ANY_TIME },
      },
    };
  };
  const named = pick(
    seed.customers.values(),
    (c) => c.c_w_id === 2 && c.c_d_id === 6 && seed.byLastName(2, 6, c.c_last).length >= 2,
    'last name shared in warehouse 2 district 6',
  );
  return {
    local: pay({ w_id: 1, d_id: 1, c_w_id: 1, c_d_id: 1, c_id: good.c_id, h_amount: 123.45 }),
    // Paid at warehouse 1 district 3 for a customer of warehouse 2 district 4 (remote), with bad credit: C_DATA grows.
    remoteBadCredit: pay({ w_id: 1, d_id: 3, c_w_id: 2, c_d_id: 4, c_id: bad.c_id, h_amount: 4321.09 }),
    byName: pay({ w_id: 2, d_id: 6, c_w_id: 2, c_d_id: 6, c_last: named.c_last, h_amount: 10 }),
    unknownName: { request: { w_id: 1, d_id: 1, c_w_id: 1, c_d_id: 1, c_last: orderStatus(data).unknownName.request.c_last, h_amount: 5 } },
    unknownWarehouse: { request: { w_id: data.scale.warehouses + 1, d_id: 1, c_w_id: 1, c_d_id: 1, c_id: 1, h_amount: 5 } },
  };
}

function delivery(data: TpccDataset) {
  const m = new TpccModel(data);
  const request = { w_id: 2, o_carrier_id: 7 };
  const response = m.delivery(request);
  const d1 = response.districts[0]!.o_id!;
  const order = m.order(2, 1, d1)!;
  const customer = m.customer(2, 1, order.o_c_id);
  const pending = data.scale.newOrdersPerDistrict;
  // Draining: as many deliveries as undelivered orders per district, then one that finds none.
  const seedCarrier3 = data.tables.orders.filter((o) => o.o_w_id === 1 && o.o_carrier_id === 3).length;
  return {
    w2: {
      request,
      response,
      keys: { o_id: d1, c_id: order.o_c_id },
      rows: { order: { o_carrier_id: 7 }, line1: { ol_delivery_d: ANY_TIME }, customer: row(customer, 'c_balance', 'c_delivery_cnt') },
      newOrdersLeft: pending - 1,
    },
    drain: {
      request: { w_id: 1, o_carrier_id: 3 },
      deliveries: pending,
      carrier3: seedCarrier3 + pending * 10,
      empty: { w_id: 1, o_carrier_id: 3, ol_delivery_d: ANY_TIME, districts: Array.from({ length: 10 }, (_, i) => ({ d_id: i + 1, o_id: null })) },
    },
  };
}

/** Stock-Level, a new order that takes items of that district below the threshold, Stock-Level again: a cached answer shows. */
function cache(data: TpccDataset) {
  const m = new TpccModel(data);
  const ask = { w_id: 1, d_id: 5, threshold: 20 };
  const before = m.stockLevel(ask);
  const used = new Set<number>();
  const falling = itemsWhere(m, 1, 5, used, (i) => m.stockOf(1, i).s_quantity >= 20 && m.stockOf(1, i).s_quantity < 30, 'stocked 20..29');
  const order: NewOrderInput = { w_id: 1, d_id: 5, c_id: 9, items: falling.map((i) => ({ ol_i_id: i, ol_supply_w_id: 1, ol_quantity: 10 })) };
  m.newOrder(order);
  const after = m.stockLevel(ask);
  if (after.low_stock === before.low_stock) throw new Error('the cache scenario does not change the stock level');
  return { ask, before, order, after };
}

/** 50 new orders at once on one district: 50 distinct consecutive order ids. */
function concurrency(data: TpccDataset) {
  const { customersPerDistrict: customers, newOrdersPerDistrict } = data.scale;
  const copies = 50;
  return {
    request: { w_id: 1, d_id: 4, c_id: 3, items: [1, 2, 3, 4, 5].map((i) => ({ ol_i_id: i, ol_supply_w_id: 1, ol_quantity: 1 })) },
    orders: customers + copies,
    newOrders: newOrdersPerDistrict + copies,
    district: { d_next_o_id: customers + copies + 1 },
    // Every line of the 50 orders took one of each item: s_order_cnt counts them all.
    stock: { s_order_cnt: copies, s_ytd: copies },
  };
}

export function flowVariables(data: TpccDataset) {
  return {
    os: orderStatus(data),
    sl: stockLevel(data),
    no: newOrder(data),
    pay: payment(data),
    dl: delivery(data),
    cache: cache(data),
    concurrency: concurrency(data),
  };
}
