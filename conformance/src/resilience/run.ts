// Runs the resilience scenarios against one implementation × API: seeds, starts it on
// local databases (a stall is a signal to a local process group), runs the scenarios in
// the file's order (shutdown, which ends the process, last) and returns their results.
import type { DatabaseKind, DatabaseServer } from '@fairbench/harness/provision/types.ts';
import { isLocalServer } from '@fairbench/harness/provision/local/fault.ts';
import { launchTarget, type Target } from '../launch-target.ts';
import { atPointer } from '../flows/variables.ts';
import { sendCall, toCall, type ImplBounds, type ScenarioContext, type ScenarioResult } from './context.ts';
import type { ApiResilience, Login, Scenario } from './files.ts';
import { runOverload } from './scenarios/overload.ts';
import { runRestart } from './scenarios/restart.ts';
import { runShutdown } from './scenarios/shutdown.ts';
import { runSlowClients } from './scenarios/slow-clients.ts';
import { runStall } from './scenarios/stall.ts';
import { runWrites } from './scenarios/writes.ts';

const RUNNERS = {
  stall: runStall,
  writes: runWrites,
  shutdown: runShutdown,
  restart: runRestart,
  'slow-clients': runSlowClients,
  overload: runOverload,
} as const;

export interface ScenarioOutcome extends ScenarioResult {
  readonly id: string;
  readonly kind: Scenario['kind'];
  readonly durationMs: number;
}

let n = 1000;

export async function runResilience(
  target: Target,
  api: ApiResilience,
  bounds: ImplBounds,
  scenarios: readonly Scenario[],
  databases: ReadonlyMap<DatabaseKind, DatabaseServer>,
  onScenario: (o: ScenarioOutcome) => void,
): Promise<ScenarioOutcome[]> {
  const database = databases.get(target.api.manifest.databases[0]!)!;
  if (!isLocalServer(database)) throw new Error('resilience needs the local runtime (a stall is SIGSTOP to the database process group)');
  const ordered = [...scenarios.filter((s) => s.kind !== 'shutdown'), ...scenarios.filter((s) => s.kind === 'shutdown')];
  const launched = await launchTarget(target, databases);
  const outcomes: ScenarioOutcome[] = [];
  try {
    const flows = launched.prepared.fixtures.flows;
    const variables: Record<string, unknown> = { ...(flows?.variables ?? {}) };
    let started = performance.now();
    const ctx: ScenarioContext = {
      running: launched.running,
      database,
      api,
      variables,
      records: flows?.records,
      bounds,
      clock: () => performance.now() - started,
      nextN: () => ++n,
    };
    for (const login of api.login === undefined ? [] : Array.isArray(api.login) ? api.login : [api.login as Login]) {
      const a = await sendCall(ctx, toCall(login.request, variables), 10_000);
      const token = a.status === 200 ? atPointer(JSON.parse(a.body), login.token) : undefined;
      if (typeof token !== 'string') throw new Error(`resilience login as ${login.as} answered ${a.status || a.error}: ${a.body.slice(0, 200)}`);
      variables[login.as] = token;
    }
    for (const s of ordered) {
      started = performance.now();
      let result: ScenarioResult;
      try {
        result = await RUNNERS[s.kind](ctx, s);
      } catch (error) {
        result = { passed: false, failures: [`the scenario could not run: ${error instanceof Error ? error.message : String(error)}`], figures: {} };
      }
      if (s.kind !== 'shutdown' && !launched.running.process.alive()) {
        result = { ...result, passed: false, failures: [...result.failures, 'the implementation process exited'] };
      }
      const outcome: ScenarioOutcome = { id: s.id, kind: s.kind, durationMs: Math.round(performance.now() - started), ...result };
      outcomes.push(outcome);
      onScenario(outcome);
      if (!launched.running.process.alive()) break;
    }
  } finally {
    // After a restart the fixtures' own connections to the database are dead: closing them may fail, harmlessly.
    await launched.stop().catch((error: unknown) => console.log(`  (closing after the scenarios: ${error instanceof Error ? error.message : String(error)})`));
  }
  return outcomes;
}
