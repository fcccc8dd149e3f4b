// The sports data set: one module that conformance (a few of each) and the benchmark (the
// load test's 1,050 accounts, 100 facilities, 400 fields) both seed from.
import { databaseUrl, type DatasetModule } from '@fairbench/harness/api/dataset.ts';
import { fingerprintSports } from './fingerprint.ts';
import { generateSports } from './generate.ts';
import { loadSports } from './load.ts';
import { CONFORMANCE_SCALE, PAPER_SCALE, type SportsDataset, type SportsScale } from './model.ts';

const sportsDataset: DatasetModule<SportsDataset, SportsScale> = {
  scales: { conformance: CONFORMANCE_SCALE, paper: PAPER_SCALE },
  generate: generateSports,
  load: (databases, data) => loadSports(databaseUrl(databases, 'postgres'), data),
  fingerprint: fingerprintSports,
};
export default sportsDataset;
