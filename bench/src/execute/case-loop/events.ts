// What the case loop tells while it runs: a load begins (a repetition, or a warm-up
// iteration), a load ends, a case ends with what it measured. The loop only emits; whoever
// wants to follow a run listens (progress.ts prints the lines and the ETA).
import { EventEmitter } from 'node:events';
import type { CaseFailure, CaseWarmup, Repetition } from '../../record/result-document.ts';

/** A step (a case for one implementation; 1-based, over the whole run) begins repetition `repetition`. */
export interface LoadBegin {
  readonly step: number;
  readonly repetition: number;
  readonly label: string;
  /** Switched slices: this one load is `share` of the repetitions of these steps (the compared implementations'; with process pairs, this start's part), planned to take `seconds`. */
  readonly switched?: { readonly steps: readonly number[]; readonly seconds: number; readonly share: number };
}

/** Process pairs: start `start` of `of` of a served case's implementations (these steps) begins, each started afresh. */
export interface StartBegin {
  readonly steps: readonly number[];
  readonly start: number;
  readonly of: number;
}

/** A step begins warm-up iteration `iteration` (of at most `max`), unrecorded, before its repetitions. */
export interface WarmupBegin {
  readonly step: number;
  readonly iteration: number;
  readonly max: number;
  readonly label: string;
}

/** A case ended for one implementation (or, database-alone, once): its repetitions, its failure and warm-up if any. */
export interface CaseEnd {
  readonly label: string;
  readonly repetitions: readonly Repetition[];
  readonly failure?: CaseFailure | undefined;
  readonly warmup?: CaseWarmup | undefined;
}

export interface CaseLoopEventMap {
  'load-begin': [LoadBegin];
  'warmup-begin': [WarmupBegin];
  'start-begin': [StartBegin];
  'load-end': [];
  'case-end': [CaseEnd];
}

export class CaseLoopEvents extends EventEmitter<CaseLoopEventMap> {}
