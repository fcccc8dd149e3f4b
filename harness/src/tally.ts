// What each check of make test checked (defects killed, cases, fuzz targets, verifications,
// scenarios), for the summary it ends with (cli/test-summary.ts): a cut that drops a check shows
// as a smaller count. make test names a folder in FAIRBENCH_TEST_RUN; each check's command
// appends one line per run to its tally there. A command run alone (make fuzz) writes nothing.
import { appendFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';

export const TEST_RUN_ENV = 'FAIRBENCH_TEST_RUN';

/** The folder make test keeps its phase times, lanes and tally in; undefined outside make test. */
export function testRunDir(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const dir = env[TEST_RUN_ENV];
  return dir === undefined || dir === '' ? undefined : dir;
}

/**
 * Adds `counts` to the check's tally. One short line appended at once: lanes running side by
 * side do not overwrite each other's.
 */
export function tally(check: string, counts: Readonly<Record<string, number>>, env: NodeJS.ProcessEnv = process.env): void {
  const dir = testRunDir(env);
  if (dir === undefined) return;
  appendFileSync(path.join(dir, 'tally.jsonl'), `${JSON.stringify({ check, counts })}\n`);
}

/** Each check's counts summed over its lines, in the order the checks first wrote. */
export async function readTally(dir: string): Promise<Map<string, Record<string, number>>> {
  const text = await readFile(path.join(dir, 'tally.jsonl'), 'utf8').catch(() => '');
  const sums = new Map<string, Record<string, number>>();
  for (const line of text.split('\n').filter((l) => l.trim() !== '')) {
    const { check, counts } = JSON.parse(line) as { check: string; counts: Record<string, number> };
    const sum = sums.get(check) ?? {};
    for (const [what, n] of Object.entries(counts)) sum[what] = (sum[what] ?? 0) + n;
    sums.set(check, sum);
  }
  return sums;
}
