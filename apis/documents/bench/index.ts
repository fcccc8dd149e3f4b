// The documents benchmark: scenario.yaml's shapes × models, the seeded collection loaded
// fresh before every repetition, k6.js against the implementation, and the same
// operations through the MongoDB driver as the database-alone baseline (baseline.ts).
import { fileURLToPath } from 'node:url';
import { databaseUrl } from '@fairbench/harness/api/dataset.ts';
import type { BenchModule } from '@fairbench/bench/api-module.ts';
import { startBaselineClient } from '@fairbench/bench/baseline/launch.ts';
import type { RunSettings } from '@fairbench/bench/k6.ts';
import { checkChoices, selectCases } from '@fairbench/bench/select.ts';
import type { DocumentsDataset } from '../dataset/model.ts';
import type { DocumentsBaselineConfig } from './baseline.ts';
import { defaultDocumentModels, expandDocuments, loadDocumentsScenario, type DocumentsCase } from './scenario.ts';

const BASELINE = fileURLToPath(new URL('./baseline.ts', import.meta.url));

const documentsBench: BenchModule<DocumentsCase, DocumentsDataset> = {
  tiers: ['driver', 'http'],
  async plan(selection, scenarioFile) {
    const { scenario, text } = await loadDocumentsScenario(scenarioFile);
    checkChoices('MODEL', selection.models, ['sequential', 'closed'], 'documents');
    const models = (selection.models as ('sequential' | 'closed')[] | undefined) ?? defaultDocumentModels(scenario);
    const cases = selectCases(expandDocuments(scenario, models, { quick: selection.quick ?? false }), selection);
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
  plannedSeconds: (c, s: RunSettings) => s.warmupSeconds + (c.model === 'sequential' ? 2 : s.durationSeconds),
};
export default documentsBench;
