// Proof of work (issue 57): the API's work model (apis/<api>/bench/work.yaml, loaded by
// bench/src/plan/work-model.ts), what one answer of each request type must make the database do.

/** A bound per answer: a number, or a numeric parameter of the case (forum's `rows`) plus a constant. */
export type WorkAmount = number | { readonly parameter: string; readonly plus?: number };

export interface WorkBound {
  readonly min?: WorkAmount;
  readonly max?: WorkAmount;
  /** Where the number comes from (the spec, a conformance case, the implementations' SQL). */
  readonly why: string;
}

export interface WorkModel {
  /** The engine whose counters the model names (DatabaseServer.engine.name). */
  readonly engine: string;
  /** The share of the modelled work a window may lack: answers whose work straddles its edges. */
  readonly tolerance: number;
  readonly requestTypes: Readonly<Record<string, { readonly counters: Readonly<Record<string, WorkBound>> }>>;
}
