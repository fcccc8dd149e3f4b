// The documents benchmark: scenario.yaml's shapes × models, the seeded collection loaded
// fresh before every repetition, k6.js against the implementation, and the same
// operations alone in two tiers: through the Node MongoDB driver (baseline.ts, the driver
// tier) and through the Go driver (apis/mongodb-common/mongo-native, the native tier).
import { fileURLToPath } from 'node:url';
import { databaseUrl } from '@fairbench/harness/api/dataset.ts';
import { type BenchModule, startBaselineClient, type RunSettings, checkChoices, selectCases, withNativeTier } from '@fairbench/bench/plugin.ts';
import { MONGO_NATIVE_CLIENT, type MongoNativeConfig } from '../../mongodb-common/mongo-native/launch.ts';
import { COLLECTION, type DocumentsDataset } from '../dataset/model.ts';
import { payload } from '../dataset/payloads.js';
import type { DocumentsBaselineConfig } from './baseline.ts';
import { defaultDocumentModels, expandDocuments, loadDocumentsScenario, type DocumentsCase } from './scenario.ts';

const BASELINE = fileURLToPath(new URL('./baseline.ts', import.meta.url));

const documentsBench: BenchModule<DocumentsCase, DocumentsDataset> = {
  tiers: ['native', 'driver', 'http'],
  async plan(selection, scenarioFile) {
    const { scenario, text } = await loadDocumentsScenario(scenarioFile);
    checkChoices('MODEL', selection.models, ['sequential', 'closed'], 'documents');
    const models = (selection.models as ('sequential' | 'closed')[] | undefined) ?? defaultDocumentModels(scenario);
    const cases = selectCases(withNativeTier(expandDocuments(scenario, models, { quick: selection.quick ?? false })), selection);
    return { cases, models, text };
  },
  prepare(_seeded, databases) {
    const mongoUrl = databaseUrl(databases, 'mongo');
    return {
      k6Env: (c, s) => ({
        KIND: c.kind,
        MODEL: c.model,
        COUNT: c.requests,
        VUS: c.concurrency,
        WARMUP: s.warmupSeconds,
        DURATION: s.durationSeconds,
        SEED: s.seed,
      }),
      startBaseline: (c, s, opts) => {
        if (c.tier === 'native') {
          // The driver tier's eight bodies (baseline.ts), inserted and replaced in turn.
          const bodies = Array.from({ length: 8 }, (_, i) => ({ kind: c.kind, payload: payload(c.kind as Parameters<typeof payload>[0], s.seed * 1000 + i) }));
          const native: MongoNativeConfig = {
            url: mongoUrl,
            pool: opts.poolSize,
            collection: COLLECTION,
            mode: c.model,
            warmupSeconds: s.warmupSeconds,
            flow: ['createDocument', 'getDocument', 'replaceDocument', 'deleteDocument'],
            requests: c.requests,
            concurrency: c.concurrency,
            durationSeconds: s.durationSeconds,
            bodies,
          };
          return startBaselineClient(MONGO_NATIVE_CLIENT, native, c.id, opts);
        }
        const config: DocumentsBaselineConfig = {
          mongoUrl,
          poolSize: opts.poolSize,
          warmupSeconds: s.warmupSeconds,
          seed: s.seed,
          kind: c.kind,
          model: c.model,
          requests: c.requests,
          concurrency: c.concurrency,
          durationSeconds: s.durationSeconds,
        };
        return startBaselineClient(BASELINE, config, c.id, opts);
      },
    };
  },
  // sequential: 4 × requests one at a time (the table shape took seconds per request in
  // the paper); closed: the window, k6's 10 s gracefulStop and requests still in flight
  // then (up to k6's 60 s timeout each: on FerretDB 32 clients of table documents wait that long).
  limitSeconds: (c, s: RunSettings) => s.warmupSeconds + (c.model === 'sequential' ? Math.max(60, c.requests * 4) + 60 : s.durationSeconds + 10 + 60 + 60),
  plannedSeconds: (c, s: RunSettings) => s.warmupSeconds + (c.plannedSeconds ?? s.durationSeconds),
};
export default documentsBench;
