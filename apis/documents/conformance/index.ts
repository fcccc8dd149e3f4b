// The documents API's part of the suite: MongoDB (FerretDB locally), the seeded `documents`
// collection, direct reads through MongoStore and the named values of the flows.
import { fingerprintDocuments } from '@fairbench/db/documents/fingerprint.ts';
import { generateDocuments } from '@fairbench/db/documents/generate.ts';
import { loadDocuments } from '@fairbench/db/documents/load-mongo.ts';
import { COLLECTION, CONFORMANCE_SCALE } from '@fairbench/db/documents/model.ts';
import { MongoStore } from '../../stores/mongo.ts';
import type { ConformanceApi } from '../types.ts';
import { documentsVariables } from './fixtures.ts';

export const documents: ConformanceApi = {
  name: 'documents',
  databases: ['mongo'],
  graphql: false,
  suites: ['flows', 'bad-input'],
  async prepare(databases) {
    const mongoUrl = databases.get('mongo')!.url;
    const data = generateDocuments(CONFORMANCE_SCALE);
    const load = await loadDocuments(mongoUrl, data);
    const store = await MongoStore.connect(mongoUrl, [COLLECTION]);
    return {
      dataset: { name: 'documents', scale: { ...CONFORMANCE_SCALE }, fingerprint: fingerprintDocuments(data), rows: load.rows, loadMs: Math.round(load.milliseconds) },
      store,
      documents: store,
      variables: documentsVariables(data),
      reset: async () => {
        await loadDocuments(mongoUrl, data);
      },
      close: () => store.close(),
    };
  },
};
