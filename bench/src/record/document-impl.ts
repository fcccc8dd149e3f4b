// The result document's `implementation`: who was measured, on which runtime variant, and
// the runtime actually run (its version as the started binary reports it, not the manifest's
// requirement), so that express, express@bun and express:main are three documents, three
// series of the report.
import type { Implementation } from '@fairbench/harness/impl/manifest.ts';
import { documentName } from './copies.ts';
import type { BenchResult } from './result-document.ts';

export interface RunFacts {
  /** The runtime's version line, read from the process (runtime-version.ts) or its image. */
  readonly runtimeVersion: string;
  readonly implTreeHash: string;
  readonly poolSize: number;
}

export function documentImplementation(impl: Implementation, facts: RunFacts): BenchResult['implementation'] {
  return {
    ...documentName(impl),
    variant: { name: impl.variant.name, default: impl.variant.isDefault },
    ...(impl.revision ? { revision: { ...impl.revision } } : {}),
    ...(impl.planted ? { planted: { ...impl.planted } } : {}),
    ...(impl.package ? { package: { ...impl.package } } : {}),
    language: impl.manifest.language,
    framework: { name: impl.manifest.framework.name, version: impl.manifest.framework.version },
    runtime: { name: impl.manifest.runtime.name, version: facts.runtimeVersion },
    implTreeHash: facts.implTreeHash,
    poolSize: facts.poolSize,
    tuning: [impl.manifest.tuning],
  };
}
