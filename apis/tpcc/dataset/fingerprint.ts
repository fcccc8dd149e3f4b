// A content hash of a generated TPC-C data set, table by table in loading order, recorded in
// verdicts and bench results: equal fingerprints, identical rows.
import { createHash } from 'node:crypto';
import { TABLES, type TpccDataset } from './model.ts';

export function fingerprintTpcc(data: TpccDataset): string {
  const hash = createHash('sha256');
  for (const table of TABLES) {
    hash.update(`${table}\n`);
    for (const row of data.tables[table]) hash.update(Object.values(row).join('\t')).update('\n');
  }
  return `sha256:${hash.digest('hex')}`;
}
