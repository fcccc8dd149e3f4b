// A content hash of a generated sports data set, table by table in loading order.
import { createHash } from 'node:crypto';
import { TABLES, type SportsDataset } from './model.ts';

export function fingerprintSports(data: SportsDataset): string {
  const hash = createHash('sha256');
  for (const table of TABLES) {
    hash.update(`${table}\n`);
    for (const row of data.tables[table]) hash.update(Object.values(row).join('\t')).update('\n');
  }
  return `sha256:${hash.digest('hex')}`;
}
