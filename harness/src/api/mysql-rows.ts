// What every MySQL data set's loader needs: a table's rows in multi-row INSERTs, one
// transaction per table (hundreds of thousands of rows load in seconds).
import type mysql from 'mysql2/promise';

/** Inserts `rows` (objects with the table's columns as keys) in batches of `batchRows`; returns how many. */
export async function insertRows(db: mysql.Connection, table: string, rows: readonly object[], batchRows: number): Promise<number> {
  const first = rows[0];
  if (first === undefined) return 0;
  const columns = Object.keys(first);
  const sql = `INSERT INTO \`${table}\` (${columns.map((c) => `\`${c}\``).join(', ')}) VALUES ?`;
  await db.beginTransaction();
  for (let i = 0; i < rows.length; i += batchRows) {
    const batch = rows.slice(i, i + batchRows).map((row) => columns.map((c) => (row as Record<string, unknown>)[c]));
    await db.query(sql, [batch]);
  }
  await db.commit();
  return rows.length;
}
