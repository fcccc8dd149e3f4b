// A content hash of a generated data set, recorded in verdicts and results so an
// auditor can tell two runs saw identical rows (e.g. after a faker upgrade).
import { createHash } from 'node:crypto';
import type { ForumDataset } from './model.ts';

export function fingerprintForum(data: ForumDataset): string {
  const hash = createHash('sha256');
  for (const table of [data.users, data.categories, data.threads, data.comments]) {
    for (const row of table) hash.update(JSON.stringify(row)).update('\n');
    hash.update('\u0000');
  }
  return `sha256:${hash.digest('hex')}`;
}
