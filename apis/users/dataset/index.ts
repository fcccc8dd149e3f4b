// The users data set (the paper's Table 1 documents, bcrypt hashes included): one module
// that conformance (150 users) and the benchmark (the paper's 1000) both seed from.
import { databaseUrl, type DatasetModule } from '@fairbench/harness/api/dataset.ts';
import { fingerprintUsers } from './fingerprint.ts';
import { generateUsers } from './generate.ts';
import { loadUsers } from './load.ts';
import { CONFORMANCE_SCALE, PAPER_SCALE, type UsersDataset, type UsersScale } from './model.ts';

const usersDataset: DatasetModule<UsersDataset, UsersScale> = {
  scales: { conformance: CONFORMANCE_SCALE, paper: PAPER_SCALE },
  generate: generateUsers,
  load: (databases, data) => loadUsers(databaseUrl(databases, 'mongo'), data),
  fingerprint: fingerprintUsers,
};
export default usersDataset;
