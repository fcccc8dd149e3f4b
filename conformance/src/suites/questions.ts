// Every question of questions.yaml, over REST and GraphQL, against the oracle.
import { askBoth } from '../checks/ask.ts';
import type { QuestionsFile } from '../case-files.ts';
import type { SuiteContext } from '../context.ts';
import { runCase, type CaseResult } from '../outcome.ts';

export async function runQuestions(ctx: SuiteContext, file: QuestionsFile): Promise<CaseResult[]> {
  const results: CaseResult[] = [];
  for (const q of file.questions) results.push(await runCase(`questions/${q.id}`, 'questions', () => askBoth(ctx, q)));
  return results;
}
