// The forum's fixtures for the suites: the oracle answers every question from the seed's
// rows, and the row store reaches the same rows in MySQL (scenarios change them; the
// statement counter catches N+1 queries).
import { databaseUrl } from '@fairbench/harness/api/dataset.ts';
import type { ConformanceModule } from '@fairbench/conformance/api-module.ts';
import type { ForumDataset } from '../dataset/model.ts';
import { ForumMysqlRows } from './mysql-rows.ts';
import { ForumOracle } from './oracle.ts';

const forumConformance: ConformanceModule<ForumDataset, 'questions' | 'scenarios' | 'bad-input'> = {
  suites: ['questions', 'scenarios', 'bad-input'],
  async prepare(seeded, databases) {
    const rows = await ForumMysqlRows.connect(databaseUrl(databases, 'mysql'));
    const ask = { oracle: new ForumOracle(seeded.data), rows };
    return {
      store: rows,
      fixtures: { questions: ask, scenarios: ask, 'bad-input': {} },
      close: () => rows.close(),
    };
  },
};
export default forumConformance;
