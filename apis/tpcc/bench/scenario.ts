// The tpcc scenario file (scenario.yaml, checked against scenario.schema.json) expanded into
// the benchmark's cases: the payment matrix and the standard mix (closed model), each
// transaction alone (sequential model), each point followed by go-tpc's database-alone case.
import { readFile } from 'node:fs/promises';
import { parse } from 'yaml';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { PlannedCase } from '@fairbench/bench/plugin.ts';
import schema from './scenario.schema.json' with { type: 'json' };

export const TRANSACTIONS = ['new-order', 'payment', 'order-status', 'delivery', 'stock-level'] as const;
export type Transaction = (typeof TRANSACTIONS)[number];
export type Model = 'closed' | 'sequential';

export interface TpccScenario {
  readonly mix: Readonly<Record<Transaction, number>>;
  readonly models: {
    readonly closed: {
      readonly default: boolean;
      readonly payment: { readonly concurrency: number[]; readonly requests: number[]; readonly quickRequests: number[]; readonly plannedPerSecond: number };
      readonly mix: { readonly terminals: number[] };
    };
    readonly sequential: { readonly default: boolean; readonly transactions: Transaction[]; readonly separateLoads?: Transaction[] };
  };
}

/** What a case runs: `weights` per transaction (the mix, or 100 for one), `vus` clients, and either `requests` in all or the window. */
export interface TpccCase extends PlannedCase {
  readonly model: Model;
  readonly weights: Readonly<Record<Transaction, number>>;
  readonly vus: number;
  /** Payment matrix: the fixed number of requests (k6 shared-iterations; go-tpc --count). */
  readonly requests?: number;
  /** Payment matrix: the plan's seconds for them, at the measured pace (scenario.yaml plannedPerSecond). */
  readonly plannedSeconds?: number;
}

const validate = new Ajv2020({ allErrors: true }).compile<TpccScenario>(schema);

export async function loadScenario(file: string): Promise<{ scenario: TpccScenario; text: string }> {
  const text = await readFile(file, 'utf8');
  const data: unknown = parse(text);
  if (!validate(data)) throw new Error(`${file}: ${(validate.errors ?? []).map((e) => `${e.instancePath} ${e.message ?? ''}`).join('; ')}`);
  const total = Object.values(data.mix).reduce((a, b) => a + b, 0);
  if (total !== 100) throw new Error(`${file}: the mix's weights add up to ${total}, not 100`);
  return { scenario: data, text };
}

export function defaultModels(s: TpccScenario): Model[] {
  return (['closed', 'sequential'] as const).filter((m) => s.models[m].default);
}

const only = (t: Transaction): Record<Transaction, number> =>
  Object.fromEntries(TRANSACTIONS.map((x) => [x, x === t ? 100 : 0])) as Record<Transaction, number>;

/** Each point's REST case, then its database-alone case (go-tpc), in the scenario's order. */
export function expandCases(s: TpccScenario, models: readonly Model[], quick: boolean): TpccCase[] {
  const cases: TpccCase[] = [];
  const point = (
    model: Model,
    name: string,
    weights: Record<Transaction, number>,
    vus: number,
    parameters: PlannedCase['parameters'],
    { requests, separate = false }: { requests?: number; separate?: boolean } = {},
  ) => {
    const requestTypes = TRANSACTIONS.filter((t) => weights[t] > 0);
    for (const protocol of ['rest', 'database']) {
      cases.push({
        id: `${protocol}/${model}/${name}`,
        protocol,
        model,
        point: `${model}/${name}`,
        parameters,
        weights,
        vus,
        requestTypes,
        // The paper's fixed number of requests (Bombardier -n) ends when they are done, not on a clock: it cannot be cut into switched slices.
        ...(requests !== undefined ? { requests, separateLoads: true as const, plannedSeconds: requests / s.models.closed.payment.plannedPerSecond } : {}),
        // A transaction that uses up the seed's rows for it (scenario.yaml sequential.separateLoads): a reset before each load.
        ...(separate ? { separateLoads: true as const } : {}),
      });
    }
  };
  if (models.includes('closed')) {
    const { payment, mix } = s.models.closed;
    for (const requests of quick ? payment.quickRequests : payment.requests) {
      for (const c of payment.concurrency)
        point('closed', `payment-c${c}-n${requests}`, only('payment'), c, { workload: 'payment', concurrency: c, requests }, { requests });
    }
    for (const t of mix.terminals) point('closed', `mix-t${t}`, { ...s.mix }, t, { workload: 'mix', concurrency: t });
  }
  if (models.includes('sequential')) {
    const { transactions, separateLoads = [] } = s.models.sequential;
    for (const t of transactions) point('sequential', t, only(t), 1, { workload: t, concurrency: 1 }, { separate: separateLoads.includes(t) });
  }
  return cases;
}
