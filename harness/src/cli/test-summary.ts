// make test's closing summary (scripts/test.sh): each phase's wall time, each check's work in the
// pool of lanes, and the counts of what was checked (tally.ts), so that a faster run that checks
// less shows as smaller counts. Args: the run's folder and make test's exit status.
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { loadApis } from '../api/manifest.ts';
import { loadImplementations } from '../impl/manifest.ts';
import { readTally } from '../tally.ts';
import type { LaneOutcome } from './lanes.ts';

const [dir, statusArg] = process.argv.slice(2);
if (dir === undefined) throw new Error('usage: test-summary.ts <run folder> [exit status]');

const minutes = (seconds: number) => `${(seconds / 60).toFixed(1)} min`;
const count = (n: number | undefined) => (n ?? 0).toLocaleString('en-US');

interface Phase {
  readonly name: string;
  readonly seconds: number;
  readonly exit: number;
}

async function phases(): Promise<Phase[]> {
  const text = await readFile(path.join(dir!, 'phases.tsv'), 'utf8').catch(() => '');
  return text
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => {
      const [name, start, end, exit] = l.split('\t');
      return { name: name!, seconds: Number(end) - Number(start), exit: Number(exit) };
    });
}

/** The pool's lanes by check: `mutants-aspnet` is the mutants check's lane for aspnet. */
interface CheckWork {
  readonly seconds: number;
  /** The lanes' CPU seconds (not their containers'), where every lane of the check reported it. */
  readonly cpuSeconds: number | undefined;
  readonly slowest: LaneOutcome;
}

async function laneOutcomes(): Promise<LaneOutcome[] | null> {
  const text = await readFile(path.join(dir!, 'lanes.json'), 'utf8').catch(() => null);
  return text === null ? null : (JSON.parse(text) as LaneOutcome[]);
}

async function workByCheck(outcomes: readonly LaneOutcome[] | null): Promise<{ lanes: number; byCheck: Map<string, CheckWork> } | null> {
  if (outcomes === null) return null;
  // A lane is its check's for an implementation (mutants-aspnet), the APIs' own code (mutants-apis) or an API (smoke-tpcc).
  const names = [...(await loadImplementations()).map((i) => i.manifest.name), 'apis', ...(await loadApis()).map((a) => a.manifest.name)];
  const suffixes = names.map((n) => `-${n}`);
  const byCheck = new Map<string, CheckWork>();
  for (const o of outcomes) {
    const suffix = suffixes.find((s) => o.name.endsWith(s));
    const check = suffix === undefined ? o.name : o.name.slice(0, -suffix.length);
    const sum = byCheck.get(check);
    if (sum === undefined) byCheck.set(check, { seconds: o.seconds, cpuSeconds: o.cpuSeconds, slowest: o });
    else
      byCheck.set(check, {
        seconds: sum.seconds + o.seconds,
        cpuSeconds: sum.cpuSeconds === undefined || o.cpuSeconds === undefined ? undefined : sum.cpuSeconds + o.cpuSeconds,
        slowest: o.seconds > sum.slowest.seconds ? o : sum.slowest,
      });
  }
  return { lanes: outcomes.length, byCheck };
}

/** The harness tests' TAP files (make harness-tests under make test): "# pass N" and so on, summed. */
async function harnessTests(): Promise<Record<string, number> | null> {
  const taps = (await readdir(dir!)).filter((f) => f.endsWith('.tap'));
  if (taps.length === 0) return null;
  const sums: Record<string, number> = {};
  for (const tap of taps) {
    for (const m of (await readFile(path.join(dir!, tap), 'utf8')).matchAll(/^# (tests|pass|fail|skipped|todo|cancelled) (\d+)$/gm)) {
      sums[m[1]!] = (sums[m[1]!] ?? 0) + Number(m[2]);
    }
  }
  return sums;
}

/**
 * A failed lane's last lines: its verdict (which defect survived, which case failed) sits at the
 * end of its log, and CI keeps the end of make test's output.
 */
async function failedLaneTails(outcomes: readonly LaneOutcome[] | null, lines = 20): Promise<string[]> {
  const out: string[] = [];
  for (const o of (outcomes ?? []).filter((l) => l.exitCode !== 0)) {
    const log = await readFile(o.logFile, 'utf8').catch(() => '');
    const tail = log.trimEnd().split('\n').slice(-lines);
    out.push(`\nlane ${o.name} failed (exit ${o.exitCode}); the end of ${path.relative(process.cwd(), o.logFile)}:`, ...tail.map((l) => `  | ${l}`));
  }
  return out;
}

const ran = await phases();
const lanes = await laneOutcomes();
const pool = await workByCheck(lanes);
const tests = await harnessTests();
const tally = await readTally(dir);
const t = (check: string) => tally.get(check) ?? {};

console.log(`\nmake test, phase by phase (${path.relative(process.cwd(), dir)}):`);
for (const p of ran) {
  let note = p.exit === 0 ? '' : `  FAILED (exit ${p.exit})`;
  if (p.name === 'harness-tests' && tests)
    note += `  ${count(tests['tests'])} tests: ${count(tests['pass'])} passed, ${count(tests['fail'])} failed, ${count(tests['skipped'])} skipped`;
  if (p.name === 'checks' && pool) {
    const work = [...pool.byCheck.values()].reduce((s, c) => s + c.seconds, 0);
    const cpu = [...pool.byCheck.values()].reduce<number | undefined>(
      (s, c) => (s === undefined || c.cpuSeconds === undefined ? undefined : s + c.cpuSeconds),
      0,
    );
    note += `  ${pool.lanes} lanes holding ${minutes(work)} of work${cpu === undefined ? '' : `, ${minutes(cpu)} of CPU (containers' not counted)`}`;
  }
  console.log(`  ${p.name.padEnd(14)} ${minutes(p.seconds).padStart(9)}${note}`);
  if (p.name === 'checks' && pool) {
    for (const [check, c] of [...pool.byCheck].sort((a, b) => b[1].seconds - a[1].seconds))
      console.log(
        `    ${check.padEnd(15)} ${minutes(c.seconds).padStart(9)} of work${c.cpuSeconds === undefined ? '' : `, ${minutes(c.cpuSeconds)} of CPU`} (longest lane: ${c.slowest.name}, ${minutes(c.slowest.seconds)})`,
      );
  }
}
console.log(`  ${'total'.padEnd(14)} ${minutes(ran.reduce((s, p) => s + p.seconds, 0)).padStart(9)}`);

console.log('\nWhat it checked (a check cut or skipped shows here as a smaller count):');
const lines: [string, string][] = [
  ['planted defects', `${count(t('mutants')['killed'])} killed, ${count(t('mutants')['survived'])} survived`],
  ['conformance', `${count(t('conformance')['cases'])} cases on ${count(t('conformance')['pairs'])} pairs, ${count(t('conformance')['failed'])} failed`],
  ['fuzzing', `${count(t('fuzz')['targets'])} fuzz targets, ${count(t('fuzz')['failed'])} failed`],
  [
    'resilience',
    `${count(t('resilience')['scenarios'])} scenarios on ${count(t('resilience')['pairs'])} pairs, ${count(t('resilience')['failed'])} pairs failed`,
  ],
  [
    'contracts',
    `${count(t('pact-consumers')['consumers'])} consumer tests; ${count(t('pact')['verifications'])} verifications, ${count(t('pact')['failed'])} failed; ` +
      `${count(t('pact-mutants')['killed'])} defects only the contract catches killed, ${count(t('pact-mutants')['survived'])} survived`,
  ],
  ["implementations' tests", `${count(t('unit')['passed'])} passed, ${count(t('unit')['failed'])} failed, ${count(t('unit')['skipped'])} skipped`],
  ['benchmark smoke', `${count(t('bench-smoke')['runs'])} runs (implementation × API)`],
  ['planted cheats', `${count(t('cheats')['caught'])} missed by conformance and caught by proof of work, ${count(t('cheats')['escaped'])} escaped`],
];
for (const [what, figures] of lines) console.log(`  ${what.padEnd(24)} ${figures}`);
for (const line of await failedLaneTails(lanes)) console.log(line);

const failed = ran.find((p) => p.exit !== 0);
const status = Number(statusArg ?? (failed ? failed.exit : 0));
console.log(
  status === 0
    ? `make test: all ${ran.length} phases ended green`
    : `make test: FAILED${failed ? ` in ${failed.name}` : ''} (exit ${status}); no phase runs after a failed one`,
);
