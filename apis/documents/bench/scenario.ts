// The documents scenario file (scenario.yaml beside this file): payload shapes × load
// models (the paper's sequential protocol and a concurrent variant).
import { type PlannedCase, loadYaml } from '@fairbench/bench/plugin.ts';
import schema from './scenario.schema.json' with { type: 'json' };

export type DocumentOp = 'createDocument' | 'getDocument' | 'replaceDocument' | 'deleteDocument';
export type Kind = 'text' | 'list' | 'record' | 'table';

export interface DocumentsScenario {
  readonly api: 'documents';
  readonly dataset: 'paper';
  readonly protocols: readonly 'rest'[];
  readonly kinds: readonly Kind[];
  readonly operations: readonly DocumentOp[];
  readonly models: {
    readonly sequential?: {
      readonly default: boolean;
      readonly requests: number;
      readonly quickRequests: number;
      readonly plannedMsPerRequest: Readonly<Record<Kind, number>>;
    };
    readonly closed?: { readonly default: boolean; readonly concurrency: readonly number[]; readonly separateLoads?: readonly string[] };
  };
}

export interface DocumentsCase extends PlannedCase {
  readonly kind: Kind;
  readonly model: 'sequential' | 'closed';
  /** sequential: requests of each operation; closed: 0. */
  readonly requests: number;
  /** closed: clients; sequential: 1. */
  readonly concurrency: number;
  /** sequential: the plan's seconds of its pass (every operation's requests at the shape's measured pace); closed: absent. */
  readonly plannedSeconds?: number;
}

export async function loadDocumentsScenario(file: string): Promise<{ scenario: DocumentsScenario; text: string }> {
  const { data, text } = await loadYaml<DocumentsScenario>(file, schema);
  return { scenario: data, text };
}

export function defaultDocumentModels(scenario: DocumentsScenario): ('sequential' | 'closed')[] {
  return (['sequential', 'closed'] as const).filter((m) => scenario.models[m]?.default === true);
}

/** Every case for the given models, in run order: per model and point, each shape's REST case then its database-alone case. */
export function expandDocuments(
  scenario: DocumentsScenario,
  models: readonly ('sequential' | 'closed')[],
  opts: { quick: boolean } = { quick: false },
): DocumentsCase[] {
  const cases: DocumentsCase[] = [];
  const add = (
    model: 'sequential' | 'closed',
    label: string,
    requests: number,
    concurrency: number,
    parameters: Record<string, number>,
    msPerRequest?: Readonly<Record<Kind, number>>,
  ) => {
    for (const kind of scenario.kinds) {
      const point = `${model}/${label}-${kind}`;
      for (const protocol of [...scenario.protocols, 'database' as const])
        cases.push({
          id: `${protocol}/${point}`,
          protocol,
          model,
          point,
          kind,
          requests,
          concurrency,
          parameters: { ...parameters, kind },
          requestTypes: scenario.operations,
          ...(msPerRequest ? { plannedSeconds: (requests * scenario.operations.length * msPerRequest[kind]) / 1000 } : {}),
          // The paper's protocol is one client's one pass (100 creates, then 100 reads, …), and a
          // slow shape's life outlasts a slice (scenario.yaml): neither is cut into switched slices.
          ...(model === 'sequential' || scenario.models.closed?.separateLoads?.includes(kind) ? { separateLoads: true as const } : {}),
        });
    }
  };
  for (const model of models) {
    if (model === 'sequential') {
      const seq = scenario.models.sequential;
      if (!seq) throw new Error('the documents scenario has no sequential model');
      const requests = opts.quick ? seq.quickRequests : seq.requests;
      add('sequential', `n${requests}`, requests, 1, { requests }, seq.plannedMsPerRequest);
    } else {
      const closed = scenario.models.closed;
      if (!closed) throw new Error('the documents scenario has no closed model');
      for (const c of closed.concurrency) add('closed', `c${c}`, 0, c, { concurrency: c });
    }
  }
  return cases;
}
