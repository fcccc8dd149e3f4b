// The forum's scenario file (scenario.yaml beside this file) and the cases it expands to:
// protocols × models × axes, each benchmarked case followed by its database-alone case.
import { loadYaml } from '@fairbench/bench/plugin.ts';
import scenarioSchema from './scenario.schema.json' with { type: 'json' };

export type Model = 'closed' | 'open';
export type Protocol = 'rest' | 'graphql' | 'database';
export type ArgKind = 'commentId' | 'userId' | 'rows';

export interface Operation {
  readonly rows: readonly number[];
  readonly joins: 0 | 1;
  readonly name: string;
  readonly sql: string;
  readonly args: readonly ArgKind[];
}

export interface ScenarioFile {
  readonly api: string;
  readonly dataset: 'paper';
  readonly protocols: readonly ('rest' | 'graphql')[];
  readonly axes: { readonly rows: readonly number[]; readonly joins: readonly (0 | 1)[] };
  readonly models: {
    readonly closed?: { readonly default: boolean; readonly concurrency: readonly number[] };
    readonly open?: { readonly default: boolean; readonly rate: readonly number[]; readonly maxVus: number };
  };
  readonly operations: readonly Operation[];
}

export interface Case {
  /** Stable across runs and implementations: <protocol>/<model>/c<concurrency>-r<rows>-j<joins> (open: rate<n>). */
  readonly id: string;
  /** <model>/<point>: shared by the case and its baseline. */
  readonly point: string;
  readonly protocol: Protocol;
  readonly model: Model;
  /** closed: VUs looping; open: most requests in flight. */
  readonly concurrency: number;
  /** open model only: arrivals per second. */
  readonly rate?: number;
  readonly rows: number;
  readonly joins: 0 | 1;
  readonly operation: Operation;
}

export async function loadScenario(file: string): Promise<{ scenario: ScenarioFile; text: string }> {
  const { data, text } = await loadYaml<ScenarioFile>(file, scenarioSchema);
  return { scenario: data, text };
}

export function defaultModels(scenario: ScenarioFile): Model[] {
  return (['closed', 'open'] as const).filter((m) => scenario.models[m]?.default === true);
}

/** Every case of the file for the given models, in run order: per point, each protocol then its baseline. */
export function expandCases(scenario: ScenarioFile, models: readonly Model[]): Case[] {
  const cases: Case[] = [];
  for (const model of models) {
    const loads = loadPoints(scenario, model);
    for (const load of loads) {
      for (const rows of scenario.axes.rows) {
        for (const joins of scenario.axes.joins) {
          const operation = scenario.operations.find((o) => o.joins === joins && o.rows.includes(rows));
          if (!operation) throw new Error(`${scenario.api} scenario: no operation for rows ${rows}, joins ${joins}`);
          const point = `${load.label}-r${rows}-j${joins}`;
          for (const protocol of [...scenario.protocols, 'database' as const]) {
            cases.push({
              id: `${protocol}/${model}/${point}`,
              point: `${model}/${point}`,
              protocol,
              model,
              concurrency: load.concurrency,
              ...(load.rate !== undefined ? { rate: load.rate } : {}),
              rows,
              joins,
              operation,
            });
          }
        }
      }
    }
  }
  return cases;
}

function loadPoints(scenario: ScenarioFile, model: Model): { label: string; concurrency: number; rate?: number }[] {
  if (model === 'closed') {
    const closed = scenario.models.closed;
    if (!closed) throw new Error(`${scenario.api} scenario has no closed model`);
    return closed.concurrency.map((c) => ({ label: `c${c}`, concurrency: c }));
  }
  const open = scenario.models.open;
  if (!open) throw new Error(`${scenario.api} scenario has no open model`);
  return open.rate.map((r) => ({ label: `rate${r}`, concurrency: open.maxVus, rate: r }));
}

/** The parameters recorded with a case in the result. */
export function caseParameters(c: Case): Record<string, number | string> {
  return {
    ...(c.model === 'closed' ? { concurrency: c.concurrency } : { rate: c.rate ?? 0, maxVus: c.concurrency }),
    rows: c.rows,
    joins: c.joins,
    operation: c.operation.name,
  };
}
