// TPC-C's consistency conditions 1-4 (clause 3.3.2), read from the database: they hold on
// a fresh load and must still hold after any mix of committed transactions. Conformance
// checks them after every flow, the benchmark after every run. Each violation is one line.
import type { Connection, Pool, RowDataPacket } from 'mysql2/promise';

type Queryable = Pick<Connection | Pool, 'query'>;

const CONDITION_1 = `
  SELECT w.w_id, w.w_ytd, d.sum_ytd
  FROM warehouse w LEFT JOIN (SELECT d_w_id, SUM(d_ytd) AS sum_ytd FROM district GROUP BY d_w_id) d ON d.d_w_id = w.w_id
  WHERE d.sum_ytd IS NULL OR w.w_ytd <> d.sum_ytd`;

const DISTRICT_ORDERS = `
  SELECT d.d_w_id AS w, d.d_id AS d, d.d_next_o_id AS next_o_id, o.max_o_id, o.sum_ol_cnt, n.max_no, n.min_no, n.count_no, l.count_ol
  FROM district d
  LEFT JOIN (SELECT o_w_id, o_d_id, MAX(o_id) AS max_o_id, SUM(o_ol_cnt) AS sum_ol_cnt FROM orders GROUP BY o_w_id, o_d_id) o
    ON o.o_w_id = d.d_w_id AND o.o_d_id = d.d_id
  LEFT JOIN (SELECT no_w_id, no_d_id, MAX(no_o_id) AS max_no, MIN(no_o_id) AS min_no, COUNT(*) AS count_no FROM new_order GROUP BY no_w_id, no_d_id) n
    ON n.no_w_id = d.d_w_id AND n.no_d_id = d.d_id
  LEFT JOIN (SELECT ol_w_id, ol_d_id, COUNT(*) AS count_ol FROM order_line GROUP BY ol_w_id, ol_d_id) l
    ON l.ol_w_id = d.d_w_id AND l.ol_d_id = d.d_id
  ORDER BY d.d_w_id, d.d_id`;

const n = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

/** The violated conditions, one line each (empty: all four hold). */
export async function consistencyViolations(db: Queryable): Promise<string[]> {
  const violations: string[] = [];
  const [warehouses] = await db.query<RowDataPacket[]>(CONDITION_1);
  for (const r of warehouses) violations.push(`condition 1: warehouse ${r['w_id']} has W_YTD ${r['w_ytd']} but its districts' D_YTD sum to ${r['sum_ytd']}`);
  const [districts] = await db.query<RowDataPacket[]>(DISTRICT_ORDERS);
  for (const r of districts) {
    const where = `warehouse ${r['w']} district ${r['d']}`;
    const next = n(r['next_o_id'])!;
    const maxO = n(r['max_o_id']);
    const maxNo = n(r['max_no']);
    const countNo = n(r['count_no']) ?? 0;
    // With no new-order row left (every order delivered) max(NO_O_ID) does not exist; the rest still holds.
    if (next - 1 !== maxO || (maxNo !== null && maxNo !== maxO)) {
      violations.push(`condition 2: ${where} has D_NEXT_O_ID - 1 = ${next - 1}, max(O_ID) = ${maxO}, max(NO_O_ID) = ${maxNo}`);
    }
    if (maxNo !== null && maxNo - n(r['min_no'])! + 1 !== countNo) {
      violations.push(`condition 3: ${where} has ${countNo} new-order rows for NO_O_ID ${r['min_no']}..${maxNo}`);
    }
    if ((n(r['sum_ol_cnt']) ?? 0) !== (n(r['count_ol']) ?? 0)) {
      violations.push(`condition 4: ${where} has sum(O_OL_CNT) = ${r['sum_ol_cnt'] ?? 0} but ${r['count_ol'] ?? 0} order lines`);
    }
  }
  return violations;
}
