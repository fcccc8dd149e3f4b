// Every question of questions.yaml, over REST and GraphQL, against the oracle.
import type { AskFixture } from '../api-module.ts';
import { askBoth } from '../checks/ask.ts';
import type { OperationsFile, QuestionsFile } from '../case-files.ts';
import type { SuiteContext } from '../context.ts';
import { runCase, type CaseResult } from '../outcome.ts';

export async function runQuestions(ctx: SuiteContext, fixture: AskFixture, operations: OperationsFile, file: QuestionsFile): Promise<CaseResult[]> {
  const results: CaseResult[] = [];
  for (const q of file.questions) results.push(await runCase(`questions/${q.id}`, 'questions', () => askBoth(ctx, fixture, operations, q)));
  return results;
}
