// The forum's data set (the paper's appendix A tables, its faker app's rows): one module
// that conformance (a small scale) and the benchmark (the paper's) both seed from.
import { databaseUrl, type DatasetModule } from '@fairbench/harness/api/dataset.ts';
import { fingerprintForum } from './fingerprint.ts';
import { generateForum } from './generate.ts';
import { loadForum } from './load.ts';
import { CONFORMANCE_SCALE, PAPER_SCALE, type ForumDataset, type ForumScale } from './model.ts';

const forumDataset: DatasetModule<ForumDataset, ForumScale> = {
  scales: { conformance: CONFORMANCE_SCALE, paper: PAPER_SCALE },
  generate: generateForum,
  load: (databases, data) => loadForum(databaseUrl(databases, 'mysql'), data),
  fingerprint: fingerprintForum,
};
export default forumDataset;
