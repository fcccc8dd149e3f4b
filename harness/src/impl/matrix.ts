// The GitHub workflow's conformance matrix, derived from the manifests so that a new
// folder under impl/ gets its CI job without editing the workflow.
import type { Implementation } from './manifest.ts';

/** One conformance job: `impl` is what `make conformance IMPL=` takes; the rest names the job. */
export interface MatrixEntry {
  readonly impl: string;
  /** The manifest's runtime, e.g. "dotnet 8.0". */
  readonly runtime: string;
  /** The APIs it serves, comma-separated. */
  readonly apis: string;
}

/** A `strategy.matrix` for `fromJSON`: a job per entry of `include`. */
export interface Matrix {
  readonly include: readonly MatrixEntry[];
}

export function conformanceMatrix(implementations: readonly Implementation[]): Matrix {
  return {
    include: implementations.map(({ manifest }) => ({
      impl: manifest.name,
      runtime: `${manifest.runtime.name} ${manifest.runtime.version}`,
      apis: manifest.apis.join(','),
    })),
  };
}
