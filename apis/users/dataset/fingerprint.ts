// A content hash of a generated users data set (hashes included: they are
// deterministic, see generate.ts), recorded in verdicts and bench results.
import { createHash } from 'node:crypto';
import type { UsersDataset } from './model.ts';

export function fingerprintUsers(data: UsersDataset): string {
  const hash = createHash('sha256');
  for (const user of data.users) hash.update(JSON.stringify(user)).update('\n');
  return `sha256:${hash.digest('hex')}`;
}
