// The TPC-C data set (clause 4.3.3.1): one module that conformance (a small custom scale of
// the same generator) and the benchmark (TPC-C's own scale, W = 1) both seed from.
import { databaseUrl, type DatasetModule } from '@fairbench/harness/api/dataset.ts';
import { fingerprintTpcc } from './fingerprint.ts';
import { generateTpcc } from './generate.ts';
import { loadTpcc } from './load.ts';
import { CONFORMANCE_SCALE, PAPER_SCALE, type TpccDataset, type TpccScale } from './model.ts';

const tpccDataset: DatasetModule<TpccDataset, TpccScale> = {
  scales: { conformance: CONFORMANCE_SCALE, paper: PAPER_SCALE },
  generate: generateTpcc,
  load: (databases, data) => loadTpcc(databaseUrl(databases, 'mysql'), data),
  fingerprint: fingerprintTpcc,
};
export default tpccDataset;
