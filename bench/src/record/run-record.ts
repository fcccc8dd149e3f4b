// The documents of a run while it goes: rewritten (atomically) after every case with
// complete: false, so that a run killed outright keeps every case it finished, and once
// more at the end. One document per implementation, the cases in the plan's order.
import { writeResult } from './result.ts';
import type { BenchCase, BenchResult } from './result-document.ts';

/** Everything in a document but what the recorder keeps up to date. */
export type DocumentHead = Omit<BenchResult, 'finishedAt' | 'wallSeconds' | 'complete' | 'plannedCases' | 'cases'>;

export interface FailedCase {
  readonly impl: string;
  readonly case: BenchCase & { failure: NonNullable<BenchCase['failure']> };
}

export interface RecorderOptions {
  readonly impls: readonly string[];
  /** The ids of every case of the run's selection, in run order. */
  readonly planned: readonly string[];
  /** The document head of one implementation, read at every write (runtime versions are learnt while the run goes). */
  head(impl: string): Promise<DocumentHead>;
  /** Cases recorded by the sessions before (RESUME), per implementation. */
  readonly prior?: ReadonlyMap<string, readonly BenchCase[]>;
  /** Seconds the sessions before ran. */
  readonly priorWallSeconds?: number;
  /** When this session began (default: when the recorder was made). */
  readonly sessionStarted?: Date;
  /** Where results go (default results/bench). */
  readonly resultsDir?: string;
}

export class RunRecorder {
  private readonly opts: RecorderOptions;
  private readonly cases = new Map<string, Map<string, BenchCase>>();
  private readonly sessionStarted: number;

  constructor(opts: RecorderOptions) {
    this.opts = opts;
    this.sessionStarted = (opts.sessionStarted ?? new Date()).getTime();
    for (const impl of opts.impls) this.cases.set(impl, new Map((opts.prior?.get(impl) ?? []).map((c) => [c.id, c])));
  }

  /** Adds one finished case (measured or failed), per implementation. */
  record(records: ReadonlyMap<string, BenchCase>): void {
    for (const [impl, c] of records) this.cases.get(impl)?.set(c.id, c);
  }

  /** Every planned case has a record in every document. */
  get complete(): boolean {
    return [...this.cases.values()].every((byId) => this.opts.planned.every((id) => byId.has(id)));
  }

  /** Recorded cases, per implementation. */
  get recordedCases(): number {
    return Math.min(...[...this.cases.values()].map((byId) => byId.size));
  }

  /** The failed cases of every document (a database-alone case once per document). */
  failed(): FailedCase[] {
    const out: FailedCase[] = [];
    for (const [impl, byId] of this.cases)
      for (const id of this.opts.planned) {
        const c = byId.get(id);
        if (c?.failure) out.push({ impl, case: c as FailedCase['case'] });
      }
    return out;
  }

  /** Writes (replaces) every implementation's document; returns the files. */
  async write(): Promise<string[]> {
    const finished = new Date();
    const wall = (this.opts.priorWallSeconds ?? 0) + (finished.getTime() - this.sessionStarted) / 1000;
    const complete = this.complete;
    const files: string[] = [];
    for (const impl of this.opts.impls) {
      const byId = this.cases.get(impl)!;
      const { schemaVersion, runId, api, startedAt, resumedAt, ...rest } = await this.opts.head(impl);
      const doc: BenchResult = {
        schemaVersion,
        runId,
        api,
        startedAt,
        ...(resumedAt ? { resumedAt } : {}),
        finishedAt: finished.toISOString(),
        wallSeconds: Math.round(wall * 10) / 10,
        complete,
        plannedCases: this.opts.planned.length,
        ...rest,
        cases: this.opts.planned.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : [])),
      };
      files.push(await writeResult(doc, this.opts.resultsDir));
    }
    return files;
  }
}
