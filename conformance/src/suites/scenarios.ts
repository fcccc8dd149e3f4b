// Scenarios: change rows directly in the database (and in the oracle), ask
// again, then undo every change so later cases see the seed again.
import { applyChange, type RowChange } from '../changes.ts';
import type { AskFixture } from '../api-module.ts';
import { askBoth } from '../checks/ask.ts';
import type { OperationsFile, ScenariosFile } from '../case-files.ts';
import type { SuiteContext } from '../context.ts';
import { runCase, type CaseResult } from '../outcome.ts';

export async function runScenarios(ctx: SuiteContext, fixture: AskFixture, operations: OperationsFile, file: ScenariosFile): Promise<CaseResult[]> {
  const { rows, oracle } = fixture;
  const results: CaseResult[] = [];
  for (const scenario of file.scenarios) {
    const undo: RowChange[] = [];
    results.push(
      await runCase(`scenarios/${scenario.id}`, 'scenarios', async () => {
        const failures: string[] = [];
        try {
          for (const [i, step] of scenario.steps.entries()) {
            if ('change' in step) {
              const change = await applyChange(rows, step.change);
              oracle.apply(change.done);
              undo.unshift(change.undo);
            } else {
              failures.push(...(await askBoth(ctx, fixture, operations, step.ask)).map((f) => `step ${i + 1}: ${f}`));
            }
          }
        } finally {
          for (const change of undo) {
            await rows.write(change);
            oracle.apply(change);
          }
        }
        return failures;
      }),
    );
  }
  return results;
}
