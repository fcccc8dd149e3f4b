// A paper's run on the papers page and the conditions it was measured under: the paper's
// set-up against ours (versions, database, generator), where each role ran, the machine's
// load at the start, k6's ceiling and the control's spread, each side's generator-bound
// repetitions, proof of work, errors by status and warm-up, and how the load's regime differs from the
// paper's. What a compact result did not keep is said to be missing, never guessed.
import type { PaperClaims } from './claims.ts';
import { num } from './claim-section.ts';
import type { CompactConditions, CompactResult } from './compact.ts';

const cores = (c: number[] | null): string => (c ? `core${c.length > 1 ? 's' : ''} ${c.join(', ')}` : 'not pinned');

function errorsText(errors: Record<string, number>, requests: number): string {
  const entries = Object.entries(errors).filter(([, n]) => n > 0);
  if (entries.length === 0) return 'no errors';
  const total = entries.reduce((s, [, n]) => s + n, 0);
  return `${num(total)} errors of ${num(requests)} requests (${entries.map(([status, n]) => `${status}: ${num(n)}`).join(', ')})`;
}

/** Proof of work: whether the database's counters matched each repetition's answers (bench/docs/measures.md). */
function workText(s: CompactConditions['sides'][number]): string {
  if (!s.work) return 'work not checked (a run before proof of work)';
  const { checked, notCheckable, missing = 0 } = s.work;
  const unread = s.repetitions - checked - notCheckable - missing;
  return `work checked in ${checked === s.repetitions ? 'every one' : `${checked} of them`} against the database's counters${missing ? `, found missing in ${missing} (kept: a run before missing work set repetitions aside)` : ''}${notCheckable ? `, ${notCheckable} not checkable` : ''}${unread > 0 ? `, ${unread} without a reading` : ''}`;
}

function conditionLines(c: CompactConditions): string[] {
  const p = c.placement;
  const lines = [`- Placement: the implementation on ${cores(p.implementation)}, the database on ${cores(p.database)}, k6 on ${cores(p.generator)}.`];
  lines.push(
    c.noise
      ? `- The machine before the first case: load average ${c.noise.loadAverage.map((x) => num(x)).join(', ')} (1, 5, 15 min); ${c.noise.busyProcesses.length ? `busy: ${c.noise.busyProcesses.join(', ')}` : 'no other busy process'}.`
      : '- The machine before the first case: not sampled.',
  );
  lines.push(
    c.ceiling
      ? `- k6's ceiling here (a no-op target): ${num(c.ceiling.rate)} req/s; the control's coefficient of variation ${c.ceiling.cv === null ? 'not measured' : `${num(c.ceiling.cv * 100)}%`}.`
      : "- k6's ceiling: not measured in this run.",
  );
  for (const s of c.sides) {
    const warmup = s.warmup ? `; warm-up steady in ${s.warmup.steady} of ${s.warmup.cases} cases` : '; no warm-up iterations (the profile runs none)';
    lines.push(
      `- ${s.label}: ${s.repetitions} repetitions, ${s.boundRepetitions} of them with k6 at its ceiling${s.invalidRepetitions ? `, and ${s.invalidRepetitions} more set aside as invalid (server errors, missing work, or the data's conditions broken)` : ''}; ${workText(s)}; ${errorsText(s.errors, s.requests)}${warmup}.`,
    );
  }
  return lines;
}

/** The run's shape: its repetitions and warm-up, and its process pairs and switched slices where it had them. */
function runShape(o: CompactResult['options']): string {
  const parts = [`${o.repeat} repetitions × ${o.durationSeconds} s after ${o.warmupSeconds} s of warm-up${o.quick ? ', the quick variants' : ''}`];
  if (o.processPairs) parts.push(`${o.processPairs} process pairs per case`);
  if (o.switchedSlices) parts.push(`${o.switchedSlices.pairs} pairs of switched ${num(o.switchedSlices.sliceSeconds)}-s slices where the case can switch`);
  if (o.warmupIterations) parts.push(o.warmupIterations.max > 0 ? `at most ${o.warmupIterations.max} warm-up iterations a start` : 'no warm-up iterations');
  return parts.join(', ');
}

export function runSection(paper: PaperClaims, c: CompactResult | null): string {
  const run = paper.claims.run;
  const lines = [`The paper's set-up: ${run.paperRuntimes}.`, ''];
  if (!c) {
    lines.push(
      `**Not yet run here.** \`make papers\` runs \`make bench IMPL=${run.pair.join(',')} API=${paper.api} PROFILE=papers\` and records its compact result in \`docs/papers/${paper.api}.json\`.`,
    );
    return lines.join('\n');
  }
  const o = c.options;
  lines.push(
    `Ours: ${c.implementations.map((i) => `${i.label} (${i.framework} on ${i.runtime})`).join(', ')}; ${c.database}; ${c.generator}.`,
    '',
    `Run \`${c.runId}\` (profile ${c.profile ?? 'none'}: ${runShape(o)}${c.wallSeconds !== undefined ? `; it took ${num(c.wallSeconds / 60)} min` : ''}), commit \`${c.commit ?? 'unknown'}\`${c.dirty ? ' with uncommitted changes' : ''}, on ${c.machine.cpuModel} (${c.machine.cores} cores, ${num(c.machine.memoryBytes / 2 ** 30)} GiB, Linux ${c.machine.kernel}); spec \`${c.specHash}\`, seed ${c.seed}; inputs \`${c.inputs}\`.`,
    '',
    '**Conditions.**',
    '',
    ...(c.conditions
      ? conditionLines(c.conditions)
      : [
          "- Not kept by this compact result (written before the page stated them): the next `make papers` run records the placement, the machine's load at the start, k6's ceiling and the control's spread, and each side's bound repetitions, errors by status and warm-up. The generator-bound repetitions of each comparison are in the claims' tables.",
        ]),
  );
  return lines.join('\n');
}

/** How our load differs in kind from the paper's: read before comparing any figure. */
export function regimeSection(paper: PaperClaims): string[] {
  const regime = paper.claims.regime ?? [];
  return regime.length ? ["**The regime against the paper's.**", '', ...regime.map((r) => `- ${r}`)] : [];
}
