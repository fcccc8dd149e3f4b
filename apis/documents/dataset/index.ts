// The documents data set (the paper's four payload shapes): one module that conformance
// (2 of each kind) and the benchmark (its background collection) both seed from.
import { databaseUrl, type DatasetModule } from '@fairbench/harness/api/dataset.ts';
import { fingerprintDocuments } from './fingerprint.ts';
import { generateDocuments } from './generate.ts';
import { loadDocuments } from './load.ts';
import { CONFORMANCE_SCALE, PAPER_SCALE, type DocumentsDataset, type DocumentsScale } from './model.ts';

const documentsDataset: DatasetModule<DocumentsDataset, DocumentsScale> = {
  scales: { conformance: CONFORMANCE_SCALE, paper: PAPER_SCALE },
  generate: generateDocuments,
  load: (databases, data) => loadDocuments(databaseUrl(databases, 'mongo'), data),
  fingerprint: fingerprintDocuments,
};
export default documentsDataset;
