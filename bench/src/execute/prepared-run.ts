// A run planned, checked and gated: what executing it starts from.
import type { Implementation } from '@fairbench/harness/impl/manifest.ts';
import type { PlannedCase } from '../plan/api-module.ts';
import type { BenchApi } from '../plan/apis.ts';
import type { ResolvedOptions } from '../plan/options.ts';
import type { RecordedOptions } from '../record/result-document.ts';
import type { ResumeState } from '../record/resume.ts';
import type { GateRecord } from './gate.ts';
import type { Where } from './parties.ts';

export interface PreparedRun {
  readonly opts: ResolvedOptions;
  readonly api: BenchApi;
  readonly impls: readonly Implementation[];
  /** Every planned case, and those still to run (a resumed run's recorded ones left out). */
  readonly cases: readonly PlannedCase[];
  readonly remaining: readonly PlannedCase[];
  readonly options: RecordedOptions;
  readonly where: Where;
  readonly resumed: ResumeState | undefined;
  readonly runId: string;
  readonly gates: ReadonlyMap<string, GateRecord>;
  readonly sessionStarted: Date;
}
