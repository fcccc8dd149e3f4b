// The forum API's part of the suite: what it needs (MySQL), how it is seeded,
// its oracle and its row store.
import { fingerprintForum } from '@fairbench/db/forum/fingerprint.ts';
import { generateForum } from '@fairbench/db/forum/generate.ts';
import { loadForum } from '@fairbench/db/forum/load-mysql.ts';
import { CONFORMANCE_SCALE } from '@fairbench/db/forum/model.ts';
import type { ConformanceApi } from '../types.ts';
import { ForumMysqlRows } from './mysql-rows.ts';
import { ForumOracle } from './oracle.ts';

export const forum: ConformanceApi = {
  name: 'forum',
  databases: ['mysql'],
  graphql: true,
  suites: ['questions', 'scenarios', 'bad-input'],
  async prepare(databases) {
    const mysqlUrl = databases.get('mysql')!.url;
    const data = generateForum(CONFORMANCE_SCALE);
    const load = await loadForum(mysqlUrl, data);
    const rows = await ForumMysqlRows.connect(mysqlUrl);
    return {
      dataset: { name: 'forum', scale: { ...CONFORMANCE_SCALE }, fingerprint: fingerprintForum(data), rows: load.rows, loadMs: Math.round(load.milliseconds) },
      oracle: new ForumOracle(data),
      rows,
      store: rows,
      close: () => rows.close(),
    };
  },
};
