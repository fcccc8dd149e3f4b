// Deterministic TPC-C rows (clause 4.3.3.1) for W warehouses from one seed: the same seed
// and scale give the same rows on every run. Values follow the spec's ranges; "now" is a
// fixed reference time, so the data does not change from day to day.
import { TpccRandom, lastName, NURAND_A } from './random.js';
import { centsText, rateText } from './money.ts';
import {
  DISTRICTS_PER_WAREHOUSE,
  type Customer,
  type District,
  type History,
  type Item,
  type NewOrder,
  type Order,
  type OrderLine,
  type Stock,
  type TpccDataset,
  type TpccScale,
  type Warehouse,
} from './model.ts';

export const LOADED_AT = '2021-06-01 00:00:00';

export function checkScale(scale: TpccScale): void {
  const positive = (name: keyof TpccScale, max: number) => {
    const v = scale[name];
    if (!Number.isInteger(v) || v < 1 || v > max) throw new RangeError(`${name} must be an integer 1..${max}, got ${v}`);
  };
  positive('warehouses', 10_000);
  positive('items', 100_000);
  positive('customersPerDistrict', 3000);
  positive('lastNames', 1000);
  if (!Number.isInteger(scale.newOrdersPerDistrict) || scale.newOrdersPerDistrict < 0 || scale.newOrdersPerDistrict > scale.customersPerDistrict) {
    throw new RangeError(`newOrdersPerDistrict must be 0..customersPerDistrict, got ${scale.newOrdersPerDistrict}`);
  }
  if (scale.lastNames > scale.customersPerDistrict) throw new RangeError('lastNames must not exceed customersPerDistrict');
}

export function generateTpcc(scale: TpccScale): TpccDataset {
  checkScale(scale);
  const r = new TpccRandom(scale.seed);
  const cLoad = r.int(0, NURAND_A.lastName);
  const item: Item[] = [];
  for (let i = 1; i <= scale.items; i++) {
    item.push({ i_id: i, i_im_id: r.int(1, 10_000), i_name: r.aString(14, 24), i_price: centsText(r.int(100, 10_000)), i_data: r.data(26, 50) });
  }
  const warehouse: Warehouse[] = [];
  const district: District[] = [];
  const customer: Customer[] = [];
  const history: History[] = [];
  const orders: Order[] = [];
  const order_line: OrderLine[] = [];
  const new_order: NewOrder[] = [];
  const stock: Stock[] = [];
  const address = () => ({ street_1: r.aString(10, 20), street_2: r.aString(10, 20), city: r.aString(10, 20), state: r.letters(2), zip: r.zip() });
  const orderCount = scale.customersPerDistrict;
  // Orders up to this id are delivered (clause 4.3.3.1: O_ID < 2,101 of 3,000).
  const delivered = orderCount - scale.newOrdersPerDistrict;

  for (let w = 1; w <= scale.warehouses; w++) {
    const wa = address();
    warehouse.push({
      w_id: w,
      w_name: r.aString(6, 10),
      w_street_1: wa.street_1,
      w_street_2: wa.street_2,
      w_city: wa.city,
      w_state: wa.state,
      w_zip: wa.zip,
      w_tax: rateText(r.int(0, 2000)),
      w_ytd: '300000.00',
    });
    for (let i = 1; i <= scale.items; i++) {
      const dist = Array.from({ length: DISTRICTS_PER_WAREHOUSE }, () => r.aString(24, 24));
      stock.push({
        s_i_id: i,
        s_w_id: w,
        s_quantity: r.int(10, 100),
        s_dist_01: dist[0]!,
        s_dist_02: dist[1]!,
        s_dist_03: dist[2]!,
        s_dist_04: dist[3]!,
        s_dist_05: dist[4]!,
        s_dist_06: dist[5]!,
        s_dist_07: dist[6]!,
        s_dist_08: dist[7]!,
        s_dist_09: dist[8]!,
        s_dist_10: dist[9]!,
        s_ytd: 0,
        s_order_cnt: 0,
        s_remote_cnt: 0,
        s_data: r.data(26, 50),
      });
    }
    for (let d = 1; d <= DISTRICTS_PER_WAREHOUSE; d++) {
      const da = address();
      district.push({
        d_id: d,
        d_w_id: w,
        d_name: r.aString(6, 10),
        d_street_1: da.street_1,
        d_street_2: da.street_2,
        d_city: da.city,
        d_state: da.state,
        d_zip: da.zip,
        d_tax: rateText(r.int(0, 2000)),
        d_ytd: '30000.00',
        d_next_o_id: orderCount + 1,
      });
      for (let c = 1; c <= scale.customersPerDistrict; c++) {
        const ca = address();
        const nameNumber = c <= scale.lastNames ? c - 1 : r.nurand(NURAND_A.lastName, 0, scale.lastNames - 1, cLoad);
        customer.push({
          c_id: c,
          c_d_id: d,
          c_w_id: w,
          c_first: r.aString(8, 16),
          c_middle: 'OE',
          c_last: lastName(nameNumber),
          c_street_1: ca.street_1,
          c_street_2: ca.street_2,
          c_city: ca.city,
          c_state: ca.state,
          c_zip: ca.zip,
          c_phone: r.nString(16, 16),
          c_since: LOADED_AT,
          c_credit: r.chance(10) ? 'BC' : 'GC',
          c_credit_lim: '50000.00',
          c_discount: rateText(r.int(0, 5000)),
          c_balance: '-10.00',
          c_ytd_payment: '10.00',
          c_payment_cnt: 1,
          c_delivery_cnt: 0,
          c_data: r.aString(300, 500),
        });
        history.push({ h_c_id: c, h_c_d_id: d, h_c_w_id: w, h_d_id: d, h_w_id: w, h_date: LOADED_AT, h_amount: '10.00', h_data: r.aString(12, 24) });
      }
      const customers = r.permutation(scale.customersPerDistrict);
      for (let o = 1; o <= orderCount; o++) {
        const isDelivered = o <= delivered;
        const lines = r.int(5, 15);
        orders.push({
          o_id: o,
          o_d_id: d,
          o_w_id: w,
          o_c_id: customers[o - 1]!,
          o_entry_d: LOADED_AT,
          o_carrier_id: isDelivered ? r.int(1, 10) : null,
          o_ol_cnt: lines,
          o_all_local: 1,
        });
        for (let n = 1; n <= lines; n++) {
          order_line.push({
            ol_o_id: o,
            ol_d_id: d,
            ol_w_id: w,
            ol_number: n,
            ol_i_id: r.int(1, scale.items),
            ol_supply_w_id: w,
            ol_delivery_d: isDelivered ? LOADED_AT : null,
            ol_quantity: 5,
            ol_amount: isDelivered ? '0.00' : centsText(r.int(1, 999_999)),
            ol_dist_info: r.aString(24, 24),
          });
        }
        if (!isDelivered) new_order.push({ no_o_id: o, no_d_id: d, no_w_id: w });
      }
    }
  }
  return { scale, cLoad, loadedAt: LOADED_AT, tables: { warehouse, district, customer, history, new_order, orders, order_line, item, stock } };
}
