// Row types of the nine TPC-C tables (schema.sql beside this file), in column order: the
// loader inserts Object.keys of a row as the column list. DECIMAL values are strings with
// their exact digits ('300000.00', '0.1234'), DATETIME values 'YYYY-MM-DD HH:MM:SS'.
import type { Scale } from '@fairbench/harness/api/dataset.ts';

export interface Warehouse {
  w_id: number;
  w_name: string;
  w_street_1: string;
  w_street_2: string;
  w_city: string;
  w_state: string;
  w_zip: string;
  w_tax: string;
  w_ytd: string;
}

export interface District {
  d_id: number;
  d_w_id: number;
  d_name: string;
  d_street_1: string;
  d_street_2: string;
  d_city: string;
  d_state: string;
  d_zip: string;
  d_tax: string;
  d_ytd: string;
  d_next_o_id: number;
}

export interface Customer {
  c_id: number;
  c_d_id: number;
  c_w_id: number;
  c_first: string;
  c_middle: string;
  c_last: string;
  c_street_1: string;
  c_street_2: string;
  c_city: string;
  c_state: string;
  c_zip: string;
  c_phone: string;
  c_since: string;
  c_credit: 'GC' | 'BC';
  c_credit_lim: string;
  c_discount: string;
  c_balance: string;
  c_ytd_payment: string;
  c_payment_cnt: number;
  c_delivery_cnt: number;
  c_data: string;
}

/** A history row; its auto-increment key h_id is the database's. */
export interface History {
  h_c_id: number;
  h_c_d_id: number;
  h_c_w_id: number;
  h_d_id: number;
  h_w_id: number;
  h_date: string;
  h_amount: string;
  h_data: string;
}

export interface NewOrder {
  no_o_id: number;
  no_d_id: number;
  no_w_id: number;
}

export interface Order {
  o_id: number;
  o_d_id: number;
  o_w_id: number;
  o_c_id: number;
  o_entry_d: string;
  o_carrier_id: number | null;
  o_ol_cnt: number;
  o_all_local: number;
}

export interface OrderLine {
  ol_o_id: number;
  ol_d_id: number;
  ol_w_id: number;
  ol_number: number;
  ol_i_id: number;
  ol_supply_w_id: number;
  ol_delivery_d: string | null;
  ol_quantity: number;
  ol_amount: string;
  ol_dist_info: string;
}

export interface Item {
  i_id: number;
  i_im_id: number;
  i_name: string;
  i_price: string;
  i_data: string;
}

export interface Stock {
  s_i_id: number;
  s_w_id: number;
  s_quantity: number;
  s_dist_01: string;
  s_dist_02: string;
  s_dist_03: string;
  s_dist_04: string;
  s_dist_05: string;
  s_dist_06: string;
  s_dist_07: string;
  s_dist_08: string;
  s_dist_09: string;
  s_dist_10: string;
  s_ytd: number;
  s_order_cnt: number;
  s_remote_cnt: number;
  s_data: string;
}

export interface TpccTables {
  readonly warehouse: readonly Warehouse[];
  readonly district: readonly District[];
  readonly customer: readonly Customer[];
  readonly history: readonly History[];
  readonly new_order: readonly NewOrder[];
  readonly orders: readonly Order[];
  readonly order_line: readonly OrderLine[];
  readonly item: readonly Item[];
  readonly stock: readonly Stock[];
}

export type TableName = keyof TpccTables;

/** The tables in loading order (small first: a failure shows early). */
export const TABLES: readonly TableName[] = ['item', 'warehouse', 'district', 'customer', 'history', 'orders', 'new_order', 'order_line', 'stock'];

/**
 * How much data. TPC-C fixes 10 districts per warehouse and one order per customer; the
 * rest scales: `items` (spec 100,000; also the stock rows per warehouse), customers (and
 * orders) per district (spec 3,000), the newest orders per district still undelivered
 * (spec 900), and how many distinct last names the customers draw from (spec 1,000:
 * the first `lastNames` customers of a district take names 0.., the rest NURand(255, 0, lastNames − 1)).
 */
export interface TpccScale extends Scale {
  readonly warehouses: number;
  readonly items: number;
  readonly customersPerDistrict: number;
  readonly newOrdersPerDistrict: number;
  readonly lastNames: number;
}

/**
 * TPC-C's own scale at one warehouse (clause 4.3.3.1), the paper's and go-tpc's data set, but
 * for one thing: every order is still undelivered (TPC-C leaves the newest 900 of a district's
 * 3,000). Delivery alone (the paper's tpmC method) takes one order of each district a
 * transaction, 100-120 a second on one client here: TPC-C's 900 were gone within a start's 8-s
 * first warm-up (the papers run 2026-11-29T05-14-21Z), and the rest of its load timed empty
 * deliveries. 3,000 last 25 s of delivery alone; the other transactions' work does not depend
 * on it (order-status and stock-level read the same rows, delivered or not).
 */
export const PAPER_SCALE: TpccScale = { seed: 1, warehouses: 1, items: 100_000, customersPerDistrict: 3000, newOrdersPerDistrict: 3000, lastNames: 1000 };

/**
 * Conformance: the same generator at a custom scale that loads in well under a second (the
 * suite reloads after every flow that writes). Two warehouses, for remote payments and
 * supply lines; 30 customers per district sharing 10 last names, so lookups by name find
 * several customers; 9 undelivered orders per district (TPC-C's 30%).
 */
export const CONFORMANCE_SCALE: TpccScale = { seed: 1, warehouses: 2, items: 1000, customersPerDistrict: 30, newOrdersPerDistrict: 9, lastNames: 10 };

export const DISTRICTS_PER_WAREHOUSE = 10;

export interface TpccDataset {
  readonly scale: TpccScale;
  /** The load's C for C_LAST's NURand (clause 2.1.6.1): the benchmark's run-time C must differ from it as the spec says. */
  readonly cLoad: number;
  /** "Now" of the load: C_SINCE, H_DATE, O_ENTRY_D and the delivered lines' OL_DELIVERY_D. */
  readonly loadedAt: string;
  readonly tables: TpccTables;
}
