// The tpcc fixtures: the nine tables read directly (db: steps), their digest (every rejected
// request must leave it unchanged), TPC-C's consistency conditions 1-4 checked after every
// flow, and the requests and answers the oracle computes from the seed (scenarios.ts).
import mysql from 'mysql2/promise';
import { databaseUrl } from '@fairbench/harness/api/dataset.ts';
import type { ConformanceModule } from '@fairbench/conformance/api-module.ts';
import { SqlRecords } from '@fairbench/conformance/stores/records.ts';
import { consistencyViolations } from '../dataset/consistency.ts';
import { TABLES, type TpccDataset } from '../dataset/model.ts';
import { flowVariables } from './scenarios.ts';

const tpccConformance: ConformanceModule<TpccDataset, 'flows' | 'bad-input'> = {
  suites: ['flows', 'bad-input'],
  async prepare(seeded, databases) {
    const url = databaseUrl(databases, 'mysql');
    const records = await SqlRecords.connect('mysql', url);
    const pool = mysql.createPool({ uri: url, connectionLimit: 2 });
    const checksum = `CHECKSUM TABLE ${TABLES.map((t) => `\`${t}\``).join(', ')}`;
    const store = {
      digest: async () => JSON.stringify((await pool.query<mysql.RowDataPacket[]>(checksum))[0].map((r) => r['Checksum'])),
    };
    return {
      store,
      fixtures: {
        flows: { records, variables: flowVariables(seeded.data), invariants: () => consistencyViolations(pool) },
        'bad-input': {},
      },
      close: async () => {
        await records.close();
        await pool.end();
      },
    };
  },
};
export default tpccConformance;
