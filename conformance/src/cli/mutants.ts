// make mutants → every mutant in conformance/mutants/ must be killed by the suite.
import { installCrashHandlers, installSignalHandlers, runCleanup } from '@fairbench/harness/cleanup.ts';
import { bold, green, red } from '../report/console.ts';
import { runMutants } from '../mutants.ts';

installSignalHandlers();
installCrashHandlers();
let exitCode = 0;
try {
  const outcomes = await runMutants();
  console.log(`\n${bold('Mutation check of the suite')}`);
  for (const o of outcomes) console.log(`  ${o.killed ? green('killed  ') : red('SURVIVED')} ${o.file.replace('.yaml', '')}/${o.mutant} (${o.failing.length} failing cases)`);
  const survived = outcomes.filter((o) => !o.killed).length;
  if (survived > 0) exitCode = 1;
  console.log(`mutants: ${outcomes.length - survived} passed, ${survived} failed`);
} catch (error) {
  console.error(red(`mutants: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`));
  exitCode = 1;
} finally {
  await runCleanup();
}
process.exit(exitCode);
