// The tpcc API's statements, one per step of TPC-C's transactions (clauses 2.4-2.8). Every
// row a transaction writes is read first with FOR UPDATE (district before stock, stock rows
// in the order of the lines), so concurrent new orders on one district serialise on its row.

const DISTRICTS = 10;
const CUSTOMER_COLUMNS = `c_id, c_first, c_middle, c_last, c_street_1, c_street_2, c_city, c_state, c_zip, c_phone, c_since,
  c_credit, c_credit_lim, c_discount, c_balance, c_data`;

export const NEW_ORDER = Object.freeze({
  warehouse: 'SELECT w_tax FROM warehouse WHERE w_id = ?',
  district: 'SELECT d_tax, d_next_o_id FROM district WHERE d_w_id = ? AND d_id = ? FOR UPDATE',
  takeOrderId: 'UPDATE district SET d_next_o_id = d_next_o_id + 1 WHERE d_w_id = ? AND d_id = ?',
  customer: 'SELECT c_discount, c_last, c_credit FROM customer WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?',
  insertOrder: 'INSERT INTO orders (o_id, o_d_id, o_w_id, o_c_id, o_entry_d, o_carrier_id, o_ol_cnt, o_all_local) VALUES (?, ?, ?, ?, ?, NULL, ?, ?)',
  insertNewOrder: 'INSERT INTO new_order (no_o_id, no_d_id, no_w_id) VALUES (?, ?, ?)',
  item: 'SELECT i_price, i_name, i_data FROM item WHERE i_id = ?',
  // The district's s_dist_<dd> column is part of the text: one statement per district (index = d_id).
  stock: Array.from({ length: DISTRICTS + 1 }, (_, d) =>
    `SELECT s_quantity, s_data, s_dist_${String(d).padStart(2, '0')} AS dist_info FROM stock WHERE s_i_id = ? AND s_w_id = ? FOR UPDATE`,
  ),
  updateStock: 'UPDATE stock SET s_quantity = ?, s_ytd = s_ytd + ?, s_order_cnt = s_order_cnt + 1, s_remote_cnt = s_remote_cnt + ? WHERE s_i_id = ? AND s_w_id = ?',
  insertLine: `INSERT INTO order_line (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_i_id, ol_supply_w_id, ol_delivery_d, ol_quantity, ol_amount, ol_dist_info)
    VALUES (?, ?, ?, ?, ?, ?, NULL, ?, ?, ?)`,
});

export const PAYMENT = Object.freeze({
  payWarehouse: 'UPDATE warehouse SET w_ytd = w_ytd + ? WHERE w_id = ?',
  warehouse: 'SELECT w_name, w_street_1, w_street_2, w_city, w_state, w_zip FROM warehouse WHERE w_id = ?',
  payDistrict: 'UPDATE district SET d_ytd = d_ytd + ? WHERE d_w_id = ? AND d_id = ?',
  district: 'SELECT d_name, d_street_1, d_street_2, d_city, d_state, d_zip FROM district WHERE d_w_id = ? AND d_id = ?',
  customerById: `SELECT ${CUSTOMER_COLUMNS} FROM customer WHERE c_w_id = ? AND c_d_id = ? AND c_id = ? FOR UPDATE`,
  customersByName: `SELECT ${CUSTOMER_COLUMNS} FROM customer WHERE c_w_id = ? AND c_d_id = ? AND c_last = ? ORDER BY c_first, c_id FOR UPDATE`,
  payCustomer: `UPDATE customer SET c_balance = c_balance - ?, c_ytd_payment = c_ytd_payment + ?, c_payment_cnt = c_payment_cnt + 1
    WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?`,
  payCustomerBadCredit: `UPDATE customer SET c_balance = c_balance - ?, c_ytd_payment = c_ytd_payment + ?, c_payment_cnt = c_payment_cnt + 1, c_data = ?
    WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?`,
  insertHistory: 'INSERT INTO history (h_c_id, h_c_d_id, h_c_w_id, h_d_id, h_w_id, h_date, h_amount, h_data) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
});

export const ORDER_STATUS = Object.freeze({
  customerById: 'SELECT c_id, c_first, c_middle, c_last, c_balance FROM customer WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?',
  customersByName: 'SELECT c_id, c_first, c_middle, c_last, c_balance FROM customer WHERE c_w_id = ? AND c_d_id = ? AND c_last = ? ORDER BY c_first, c_id',
  lastOrder: 'SELECT o_id, o_entry_d, o_carrier_id FROM orders WHERE o_w_id = ? AND o_d_id = ? AND o_c_id = ? ORDER BY o_id DESC LIMIT 1',
  lines: 'SELECT ol_supply_w_id, ol_i_id, ol_quantity, ol_amount, ol_delivery_d FROM order_line WHERE ol_w_id = ? AND ol_d_id = ? AND ol_o_id = ? ORDER BY ol_number',
});

export const DELIVERY = Object.freeze({
  warehouse: 'SELECT 1 AS found FROM warehouse WHERE w_id = ?',
  oldestNewOrder: 'SELECT no_o_id FROM new_order WHERE no_w_id = ? AND no_d_id = ? ORDER BY no_o_id LIMIT 1 FOR UPDATE',
  deleteNewOrder: 'DELETE FROM new_order WHERE no_w_id = ? AND no_d_id = ? AND no_o_id = ?',
  orderCustomer: 'SELECT o_c_id FROM orders WHERE o_w_id = ? AND o_d_id = ? AND o_id = ? FOR UPDATE',
  setCarrier: 'UPDATE orders SET o_carrier_id = ? WHERE o_w_id = ? AND o_d_id = ? AND o_id = ?',
  deliverLines: 'UPDATE order_line SET ol_delivery_d = ? WHERE ol_w_id = ? AND ol_d_id = ? AND ol_o_id = ?',
  linesTotal: 'SELECT COALESCE(SUM(ol_amount), 0) AS total FROM order_line WHERE ol_w_id = ? AND ol_d_id = ? AND ol_o_id = ?',
  creditCustomer: 'UPDATE customer SET c_balance = c_balance + ?, c_delivery_cnt = c_delivery_cnt + 1 WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?',
});

export const STOCK_LEVEL = Object.freeze({
  nextOrderId: 'SELECT d_next_o_id FROM district WHERE d_w_id = ? AND d_id = ?',
  lowStock: `SELECT COUNT(DISTINCT s.s_i_id) AS low_stock
    FROM order_line ol JOIN stock s ON s.s_w_id = ? AND s.s_i_id = ol.ol_i_id
    WHERE ol.ol_w_id = ? AND ol.ol_d_id = ? AND ol.ol_o_id >= ? AND ol.ol_o_id < ? AND s.s_quantity < ?`,
});

export { DISTRICTS };
