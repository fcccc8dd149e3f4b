// make bench … RESUME=<runId>: continue a run that was stopped (killed, Ctrl-C, a crash)
// from its documents, which the runner rewrites after every case. Only the same run may
// be continued — same API, implementations (and their trees), options, scenario file,
// placement, provider and data set — else its halves would not be one measurement.
import { readFile } from 'node:fs/promises';
import { UsageError } from '@fairbench/harness/cli/usage.ts';
import { resultErrors, resultFileCandidates } from './result.ts';
import type { BenchCase, BenchResult } from './result-document.ts';

/** What the resumed session must equal: the options as it would record them, and each implementation's tree hash. */
export interface ResumeExpectation {
  readonly options: BenchResult['options'];
  readonly implTreeHashes: ReadonlyMap<string, string>;
  /** Cores of the implementation and the generator (PIN). */
  readonly placement: { readonly implementation: readonly number[] | null; readonly generator: readonly number[] | null };
}

export interface ResumeState {
  readonly runId: string;
  readonly startedAt: string;
  readonly resumedAt: readonly string[];
  readonly wallSeconds: number;
  /** Cases every document has recorded (measured or failed): not run again. */
  readonly done: ReadonlySet<string>;
  /** Those cases, per implementation. */
  readonly cases: ReadonlyMap<string, readonly BenchCase[]>;
  readonly docs: ReadonlyMap<string, BenchResult>;
}

/** RESUME of a run (of one API) that every document records as complete: the same run, nothing left to do. */
export class RunComplete extends UsageError {}

/** A run id as newRunId makes them (a RESUME value names a file). */
export function checkRunId(runId: string): void {
  if (!/^[A-Za-z0-9._-]+$/.test(runId)) throw new UsageError(`RESUME must be a run id like 2026-01-01T12-00-00Z (a result file's name), got '${runId}'`);
}

/** Reads the run's documents (one per implementation) and checks that this invocation may continue it. */
export async function loadResume(api: string, impls: readonly string[], runId: string, expected: ResumeExpectation, resultsDir?: string): Promise<ResumeState> {
  checkRunId(runId);
  const docs = new Map<string, BenchResult>();
  for (const impl of impls) {
    const candidates = resultFileCandidates(api, impl, runId, resultsDir);
    let doc: unknown;
    let file = candidates[0]!;
    for (const candidate of candidates) {
      file = candidate;
      try {
        doc = JSON.parse(await readFile(candidate, 'utf8'));
        break;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw new UsageError(`RESUME=${runId}: cannot read ${candidate}: ${(error as Error).message}`);
      }
    }
    if (doc === undefined) throw new UsageError(`RESUME=${runId}: no result of that run for ${impl} on ${api} (${candidates.join(' or ')})`);
    const problems = resultErrors(doc);
    if (problems.length) throw new UsageError(`RESUME=${runId}: ${file} does not match bench/results.schema.json: ${problems.slice(0, 3).join('; ')}`);
    docs.set(impl, doc as BenchResult);
  }
  return resumeState(docs, expected);
}

/** The state to continue from, or a UsageError naming every difference that forbids it. */
export function resumeState(docs: ReadonlyMap<string, BenchResult>, expected: ResumeExpectation): ResumeState {
  const all = [...docs.values()];
  const first = all[0];
  if (!first) throw new UsageError('RESUME: no document to resume');
  const runId = first.runId;
  const differences = optionDifferences(first.options, expected.options);
  for (const [impl, doc] of docs) {
    const hash = expected.implTreeHashes.get(impl);
    if (hash !== undefined && doc.implementation.implTreeHash !== hash)
      differences.push(`${impl}'s tree changed since (${short(doc.implementation.implTreeHash)} → ${short(hash)})`);
  }
  for (const part of ['implementation', 'generator'] as const) {
    const was = first.machine.placement[part];
    const now = expected.placement[part];
    if (JSON.stringify(was) !== JSON.stringify(now)) differences.push(`${part} cores ${cores(was)} → ${cores(now)} (PIN)`);
  }
  if (differences.length)
    throw new UsageError(
      `RESUME=${runId}: this is not the same run, so it cannot be continued: ${differences.join('; ')}. Start a new run (without RESUME), or give the interrupted run's options.`,
    );
  // Checked after the differences: in a run of several APIs, the parts already complete must match too.
  if (all.every((d) => d.complete !== false))
    throw new RunComplete(`RESUME=${runId}: that run is complete (every planned case is recorded): nothing to resume`);
  // A run killed between two documents' writes: the case only some have is run again for all.
  const done = new Set(first.cases.map((c) => c.id).filter((id) => all.every((d) => d.cases.some((c) => c.id === id))));
  return {
    runId,
    startedAt: first.startedAt,
    resumedAt: first.resumedAt ?? [],
    wallSeconds: first.wallSeconds ?? 0,
    done,
    cases: new Map([...docs].map(([impl, d]) => [impl, d.cases.filter((c) => done.has(c.id))])),
    docs: new Map(docs),
  };
}

/** After seeding: the same provider and the same data as the run being continued. */
export function checkResumedDatabase(state: ResumeState, now: { provider: string; fingerprint: string; engine: string; version: string }): void {
  const doc = [...state.docs.values()][0]!;
  const differences: string[] = [];
  if (doc.provider !== now.provider) differences.push(`provider ${doc.provider} → ${now.provider} (RUNTIME)`);
  if (doc.dataset.fingerprint !== now.fingerprint) differences.push(`data set fingerprint ${doc.dataset.fingerprint} → ${now.fingerprint}`);
  if (doc.database.engine !== now.engine || doc.database.version !== now.version)
    differences.push(`database ${doc.database.engine} ${doc.database.version} → ${now.engine} ${now.version}`);
  if (differences.length) throw new UsageError(`RESUME=${state.runId}: this is not the same run, so it cannot be continued: ${differences.join('; ')}`);
}

/** The options that differ, as "name was → now". */
export function optionDifferences(was: BenchResult['options'], now: BenchResult['options']): string[] {
  const keys = [...new Set([...Object.keys(was), ...Object.keys(now)])] as (keyof BenchResult['options'])[];
  const show = (v: unknown) => (v === undefined ? '(none)' : Array.isArray(v) ? v.join(',') || '(none)' : String(v));
  return keys.filter((k) => JSON.stringify(was[k]) !== JSON.stringify(now[k])).map((k) => `${k} ${show(was[k])} → ${show(now[k])}`);
}

const short = (hash: string) => hash.replace(/^sha256:/, '').slice(0, 12);
const cores = (c: readonly number[] | null) => (c ? c.join(',') : 'not pinned');
