// The documents fixtures for the flows: direct reads of the stored documents, and the
// seed's documents and valid bodies by kind ({{seed.text.id}}, {{bodies.table}}).
import { databaseUrl } from '@fairbench/harness/api/dataset.ts';
import type { ConformanceModule } from '@fairbench/conformance/api-module.ts';
import { MongoStore } from '@fairbench/conformance/stores/mongo.ts';
import { COLLECTION, type DocumentsDataset } from '../dataset/model.ts';
import { documentsVariables } from './fixtures.ts';

const documentsConformance: ConformanceModule<DocumentsDataset, 'flows' | 'bad-input'> = {
  suites: ['flows', 'bad-input'],
  async prepare(seeded, databases) {
    const store = await MongoStore.connect(databaseUrl(databases, 'mongo'), [COLLECTION]);
    return {
      store,
      fixtures: { flows: { records: store, variables: documentsVariables(seeded.data) }, 'bad-input': {} },
      close: () => store.close(),
    };
  },
};
export default documentsConformance;
