// The documents benchmark (APIS.md §3): bench/scenarios/documents.yaml's shapes × models,
// the seeded documents collection in MongoDB (FerretDB) loaded fresh before every
// repetition, bench/k6/documents.js, and the same operations through the MongoDB driver.
import { join } from 'node:path';
import type { RunSettings } from '../../k6.ts';
import { startMongoBaseline } from '../../baseline/mongo-run.ts';
import { benchDir } from '../../paths.ts';
import schema from '../../../schemas/documents-scenario.schema.json' with { type: 'json' };
import { fingerprintDocuments } from '@fairbench/db/documents/fingerprint.ts';
import { generateDocuments } from '@fairbench/db/documents/generate.ts';
import { loadDocuments } from '@fairbench/db/documents/load-mongo.ts';
import { PAPER_SCALE } from '@fairbench/db/documents/model.ts';
import { selectCases, type PointCase } from '../select.ts';
import type { BenchApi, CaseSelection, Plan } from '../types.ts';
import { loadYaml } from '../yaml.ts';

export type DocumentOp = 'createDocument' | 'getDocument' | 'replaceDocument' | 'deleteDocument';
export type Kind = 'text' | 'list' | 'record' | 'table';

export interface PaperDifference {
  readonly kind: Kind;
  readonly operation?: DocumentOp;
  /** (mean Hapi − mean Express) / mean Hapi in percent: a value or a [low, high] range. */
  readonly expressShorterPercent: number | readonly [number, number];
  readonly note?: string;
}

export interface DocumentsScenario {
  readonly api: 'documents';
  readonly script: string;
  readonly dataset: 'paper';
  readonly protocols: readonly 'rest'[];
  readonly kinds: readonly Kind[];
  readonly operations: readonly DocumentOp[];
  readonly models: {
    readonly sequential?: { readonly default: boolean; readonly requests: number; readonly quickRequests: number };
    readonly closed?: { readonly default: boolean; readonly concurrency: readonly number[] };
  };
  readonly paper: { readonly source: string; readonly differences: readonly PaperDifference[] };
}

export interface DocumentsCase extends PointCase {
  readonly kind: Kind;
  readonly model: 'sequential' | 'closed';
  /** sequential: requests of each operation; closed: 0. */
  readonly requests: number;
  /** closed: clients; sequential: 1. */
  readonly concurrency: number;
}

export const DOCUMENTS_SCENARIO = join(benchDir, 'scenarios', 'documents.yaml');

export async function loadDocumentsScenario(file = DOCUMENTS_SCENARIO): Promise<{ scenario: DocumentsScenario; text: string }> {
  const { data, text } = await loadYaml<DocumentsScenario>(file, schema);
  return { scenario: data, text };
}

export function defaultDocumentModels(scenario: DocumentsScenario): ('sequential' | 'closed')[] {
  return (['sequential', 'closed'] as const).filter((m) => scenario.models[m]?.default === true);
}

/** Every case for the given models, in run order: per model and point, each shape's REST case then its database-alone case. */
export function expandDocuments(scenario: DocumentsScenario, models: readonly ('sequential' | 'closed')[], opts: { quick: boolean } = { quick: false }): DocumentsCase[] {
  const cases: DocumentsCase[] = [];
  const add = (model: 'sequential' | 'closed', label: string, requests: number, concurrency: number, parameters: Record<string, number>) => {
    for (const kind of scenario.kinds) {
      const point = `${model}/${label}-${kind}`;
      for (const protocol of [...scenario.protocols, 'database' as const])
        cases.push({ id: `${protocol}/${point}`, protocol, model, point, kind, requests, concurrency, parameters: { ...parameters, kind }, requestTypes: scenario.operations });
    }
  };
  for (const model of models) {
    if (model === 'sequential') {
      const seq = scenario.models.sequential;
      if (!seq) throw new Error('the documents scenario has no sequential model');
      const requests = opts.quick ? seq.quickRequests : seq.requests;
      add('sequential', `n${requests}`, requests, 1, { requests });
    } else {
      const closed = scenario.models.closed;
      if (!closed) throw new Error('the documents scenario has no closed model');
      for (const c of closed.concurrency) add('closed', `c${c}`, 0, c, { concurrency: c });
    }
  }
  return cases;
}

export const documentsBench: BenchApi<DocumentsCase> = {
  name: 'documents',
  database: 'mongo',
  async plan(selection: CaseSelection): Promise<Plan<DocumentsCase>> {
    const { scenario, text } = await loadDocumentsScenario();
    for (const m of selection.models ?? []) if (m !== 'sequential' && m !== 'closed') throw new Error(`MODEL must be sequential or closed for documents, got '${m}'`);
    const models = (selection.models as ('sequential' | 'closed')[] | undefined) ?? defaultDocumentModels(scenario);
    const cases = selectCases(expandDocuments(scenario, models, { quick: selection.quick ?? false }), selection);
    return { cases, models, file: DOCUMENTS_SCENARIO, text, script: scenario.script };
  },
  async prepare(db) {
    const scale = PAPER_SCALE;
    const data = generateDocuments(scale);
    const loaded = await loadDocuments(db.url, data);
    console.log(`seeded documents: ${JSON.stringify(loaded.rows)} in ${Math.round(loaded.milliseconds)} ms`);
    return {
      dataset: {
        name: 'documents',
        seed: scale.seed,
        scale: { ...scale },
        fingerprint: fingerprintDocuments(data),
        rows: loaded.rows,
        loadMs: Math.round(loaded.milliseconds),
      },
      reset: async () => {
        await loadDocuments(db.url, data);
      },
      k6Env: (c, s) => ({
        KIND: c.kind,
        MODEL: c.model,
        COUNT: c.requests,
        VUS: c.concurrency,
        WARMUP: s.warmupSeconds,
        DURATION: s.durationSeconds,
        SEED: s.seed,
      }),
      startBaseline: (c, s, opts) =>
        startMongoBaseline(
          {
            api: 'documents',
            mongoUrl: db.url,
            poolSize: opts.poolSize,
            warmupSeconds: s.warmupSeconds,
            seed: s.seed,
            documents: { kind: c.kind, model: c.model, requests: c.requests, concurrency: c.concurrency, durationSeconds: s.durationSeconds },
          },
          c.id,
          opts,
        ),
    };
  },
  // sequential: 4 × requests one at a time (the table shape took seconds per request in
  // the paper); closed: the window, k6's 10 s gracefulStop and requests still in flight
  // then (up to k6's 60 s timeout each: on FerretDB 32 clients of table documents wait that long).
  limitSeconds: (c, s: RunSettings) => s.warmupSeconds + (c.model === 'sequential' ? Math.max(60, c.requests * 4) + 60 : s.durationSeconds + 10 + 60 + 60),
  plannedSeconds: (c, s: RunSettings) => s.warmupSeconds + (c.model === 'sequential' ? 2 : s.durationSeconds),
};
