// A paper's compact result (docs/papers/<api>.json, bench/schemas/paper-result.schema.json):
// what the papers page needs from one run of the paper's pair and nothing else — per claim
// and comparison (a case, or one request type of it) each side's figure per repetition,
// and the run's provenance. Committed, so that the page can be regenerated and diffed
// without the full result documents.
import { docLabel } from '../../record/copies.ts';
import { isDatabaseAlone, type BenchCase, type BenchResult, type RecordedOptions } from '../../record/result-document.ts';
import { caseMatcher } from '../../plan/select.ts';
import { claimDefinition, measuredByPapers, metricOf, pairOf, type PaperClaims } from './claims.ts';

export interface CompactUnit {
  case: string;
  requestType?: string;
  /** pair[0]'s figure in each repetition that recorded it (repetitions that broke the data's conditions left out). */
  a: number[];
  b: number[];
  /** Where the run had process pairs: per start, the figures both sides measured in it, paired by index (the comparison's unit). */
  processPairs?: { a: number[]; b: number[] }[];
  /** Of those repetitions, how many of each side's k6 was generator-bound (the run's rule); absent when none. */
  bound?: [number, number];
}

/** One implementation's side of the run, over every served case it measured. */
export interface CompactSide {
  label: string;
  repetitions: number;
  /** Of those, how many had k6 at its ceiling. */
  boundRepetitions: number;
  /** Repetitions set aside as invalid (src/record/validity.ts); absent: none. */
  invalidRepetitions?: number;
  /** Proof of work over the repetitions: how many the database's counters checked, how many they could not; absent: a run before the check. */
  work?: { checked: number; notCheckable: number; missing?: number };
  requests: number;
  /** Failed requests by status (k6's status, or the reason where no response came). */
  errors: Record<string, number>;
  /** Cases whose warm-up iterations ran, and how many of them ended steady; null: the profile runs none. */
  warmup: { cases: number; steady: number } | null;
}

/** What the page states of the run's conditions (bench/src/record/result-document.ts). */
export interface CompactConditions {
  /** Cores each role was pinned to; null: not pinned. */
  placement: { implementation: number[] | null; database: number[] | null; generator: number[] | null };
  /** The load average (1, 5, 15 min) and the busy processes before the first case; null: not sampled. */
  noise: { loadAverage: number[]; busyProcesses: string[] } | null;
  /** k6 against a no-op server: the most it sent here, and the control's coefficient of variation; null: not measured. */
  ceiling: { rate: number; cv: number | null } | null;
  sides: CompactSide[];
}

/** The options a paper's run recorded that its plan's time follows from (bench/src/plan/run-plan.ts stepLoads). */
export type CompactOptions = Pick<RecordedOptions, 'repeat' | 'durationSeconds' | 'warmupSeconds' | 'quick'> &
  Partial<Pick<RecordedOptions, 'firstWarmupSeconds' | 'warmupIterations' | 'processPairs' | 'switchedSlices' | 'cases' | 'limits'>>;

export interface CompactResult {
  schemaVersion: 1;
  api: string;
  /** The hash of what the run measured (bench/src/cli/papers.ts inputsHash): make papers runs again when it changes. */
  inputs: string;
  runId: string;
  commit: string | null;
  dirty: boolean;
  specHash: string;
  seed: number;
  profile: string | null;
  /** The run's options; what the plan needs beyond the first four is absent in compact results written before it was kept. */
  options: CompactOptions;
  /** The run's measured time from its start to its end, over every session of a resumed run (absent before it was kept). */
  wallSeconds?: number;
  machine: { cpuModel: string; cores: number; kernel: string; memoryBytes: number };
  database: string;
  generator: string;
  implementations: { label: string; framework: string; runtime: string }[];
  /** Absent in compact results written before they were kept. */
  conditions?: CompactConditions;
  /**
   * definition: what the claim measured (claims.ts claimDefinition), so that a re-encoded claim
   * is not read with old figures; failed: its cases the run measured without a figure for both
   * (a side's case failed, or every repetition was set aside), each side's reason.
   */
  claims: { id: string; definition: string; units: CompactUnit[]; failed?: CompactFailed[] }[];
}

/** A claim's case that ran without a figure for one side, and why. */
export interface CompactFailed {
  case: string;
  side: string;
  reason: string;
}

/** Why a side's case gave no figure: its failure, else why its repetitions were set aside. */
function noFigure(c: BenchCase): string {
  const invalid = c.invalidRepetitions?.flatMap((r) => r.notes ?? []).find((n) => n.startsWith('invalid: '));
  if (!c.failure) return invalid ?? 'no valid repetition';
  const before = c.failure.kind !== 'invalid' && invalid ? ` (the repetitions before it: ${invalid})` : '';
  return `${c.failure.reason}${before}`;
}

const nameVersion = (x: { name: string; version: string }) => `${x.name} ${x.version}`;

type Figure = { value: number; index: number; process: number | undefined };

/** Per start (repetitions' `process`), the figures both sides have at the same index; undefined without at least two such starts. */
function byProcess(a: readonly Figure[], b: readonly Figure[]): { a: number[]; b: number[] }[] | undefined {
  const other = new Map(b.map((f) => [f.index, f]));
  const starts = new Map<number, { a: number[]; b: number[] }>();
  for (const f of a) {
    const g = other.get(f.index);
    if (f.process === undefined || g?.process !== f.process) continue;
    const start = starts.get(f.process) ?? { a: [], b: [] };
    start.a.push(f.value);
    start.b.push(g.value);
    starts.set(f.process, start);
  }
  return starts.size >= 2 ? [...starts.values()] : undefined;
}

/** The compact result of one run's documents (one per implementation of the paper's pair). */
export function compactResult(paper: PaperClaims, docs: readonly BenchResult[], inputs: string): CompactResult {
  const first = docs[0];
  if (!first) throw new Error(`${paper.api}: no result documents to compact`);
  const byLabel = new Map(docs.map((d) => [docLabel(d), d]));
  const claims = paper.claims.claims.map((claim) => {
    const [a, b] = pairOf(paper.claims, claim).map((l) => byLabel.get(l));
    const definition = claimDefinition(paper.claims, claim);
    if (!measuredByPapers(claim) || !a || !b) return { id: claim.id, definition, units: [] };
    const matches = caseMatcher(claim.cases);
    // The claim's served cases both sides ran.
    const both = a.cases.flatMap((ca): [BenchCase, BenchCase][] => {
      const cb = b.cases.find((c) => c.id === ca.id);
      return cb && !isDatabaseAlone(ca.protocol) && matches(ca.id) ? [[ca, cb]] : [];
    });
    const units = both.flatMap(([ca, cb]): CompactUnit[] => {
      return (claim.requestTypes ?? [undefined]).flatMap((requestType) => {
        // Each valid repetition that recorded the figure, with whether k6 was bound in it.
        const measured = (reps: typeof ca.repetitions) =>
          reps.flatMap((r) => {
            const value = r.invalid ? undefined : metricOf(claim.metric, r, requestType);
            return value === undefined ? [] : [{ value, bound: r.generatorBound === true, index: r.index, process: r.process }];
          });
        const [ma, mb] = [measured(ca.repetitions), measured(cb.repetitions)];
        const bound: [number, number] = [ma.filter((m) => m.bound).length, mb.filter((m) => m.bound).length];
        const processPairs = byProcess(ma, mb);
        const unit: CompactUnit = {
          case: ca.id,
          ...(requestType ? { requestType } : {}),
          a: ma.map((m) => m.value),
          b: mb.map((m) => m.value),
          ...(processPairs ? { processPairs } : {}),
          ...(bound[0] + bound[1] > 0 ? { bound } : {}),
        };
        return unit.a.length && unit.b.length ? [unit] : [];
      });
    });
    const failed = both.flatMap(([ca, cb]): CompactFailed[] => {
      if (units.some((u) => u.case === ca.id)) return [];
      const sides: [BenchCase, string][] = [
        [ca, docLabel(a)],
        [cb, docLabel(b)],
      ];
      return sides.flatMap(([c, side]) => (c.failure || c.repetitions.every((r) => r.invalid) ? [{ case: ca.id, side, reason: noFigure(c) }] : []));
    });
    return { id: claim.id, definition, units, ...(failed.length ? { failed } : {}) };
  });
  return {
    schemaVersion: 1,
    api: paper.api,
    inputs,
    runId: first.runId,
    commit: first.source.commit,
    dirty: first.source.dirty,
    specHash: first.source.specHash,
    seed: first.options.seed ?? first.dataset.seed,
    profile: first.options.profile ?? null,
    options: compactOptions(first.options),
    ...(first.wallSeconds !== undefined ? { wallSeconds: first.wallSeconds } : {}),
    machine: { cpuModel: first.machine.cpuModel, cores: first.machine.cores, kernel: first.machine.kernel, memoryBytes: first.machine.memoryBytes },
    database: `${first.database.engine} ${first.database.version}`,
    generator: `${first.generator.name} ${first.generator.version}`,
    implementations: docs.map((d) => ({
      label: docLabel(d),
      framework: nameVersion(d.implementation.framework),
      runtime: nameVersion(d.implementation.runtime),
    })),
    conditions: conditionsOf(docs),
    claims,
  };
}

function compactOptions(o: RecordedOptions): CompactOptions {
  const { repeat, durationSeconds, warmupSeconds, quick, firstWarmupSeconds, warmupIterations, processPairs, switchedSlices, cases, limits } = o;
  return {
    repeat,
    durationSeconds,
    warmupSeconds,
    quick,
    ...(firstWarmupSeconds !== undefined ? { firstWarmupSeconds } : {}),
    ...(warmupIterations ? { warmupIterations } : {}),
    ...(processPairs !== undefined ? { processPairs } : {}),
    ...(limits !== undefined ? { limits } : {}),
    ...(switchedSlices ? { switchedSlices } : {}),
    cases: cases ?? null,
  };
}

function sideOf(doc: BenchResult): CompactSide {
  const served = doc.cases.filter((c) => !isDatabaseAlone(c.protocol));
  const reps = served.flatMap((c) => c.repetitions.filter((r) => !r.invalid));
  const errors: Record<string, number> = {};
  for (const r of reps) for (const [status, n] of Object.entries(r.errors)) errors[status] = (errors[status] ?? 0) + n;
  const warmed = served.filter((c) => c.warmup);
  // Marked invalid in place (documents before they were set aside) or set aside.
  const invalid = served.reduce((n, c) => n + (c.invalidRepetitions?.length ?? 0) + c.repetitions.filter((r) => r.invalid).length, 0);
  return {
    label: docLabel(doc),
    repetitions: reps.length,
    boundRepetitions: reps.filter((r) => r.generatorBound === true).length,
    ...(invalid ? { invalidRepetitions: invalid } : {}),
    ...(reps.some((r) => r.work)
      ? {
          work: {
            checked: reps.filter((r) => r.work?.verdict === 'checked').length,
            notCheckable: reps.filter((r) => r.work?.verdict === 'not checkable').length,
            ...(reps.some((r) => r.work?.verdict === 'missing work') ? { missing: reps.filter((r) => r.work?.verdict === 'missing work').length } : {}),
          },
        }
      : {}),
    requests: reps.reduce((sum, r) => sum + r.requests, 0),
    errors,
    warmup: doc.options.warmupIterations ? { cases: warmed.length, steady: warmed.filter((c) => c.warmup!.steady).length } : null,
  };
}

function conditionsOf(docs: readonly BenchResult[]): CompactConditions {
  const { machine, generator } = docs[0]!;
  const { noise } = machine;
  return {
    placement: machine.placement,
    noise: noise ? { loadAverage: noise.loadAverage, busyProcesses: noise.busyProcesses.map((p) => `${p.command} (${Math.round(p.cpuPercent)}%)`) } : null,
    ceiling: generator.ceiling ? { rate: generator.ceiling.rate, cv: generator.ceiling.cv ?? null } : null,
    sides: docs.map(sideOf),
  };
}
