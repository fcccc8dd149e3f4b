// The same implementation named more than once (IMPL=express,express): an A/A calibration
// run. Its copies are started, measured and alternated like different implementations, so
// any difference the report finds between them is a false one; the report shows such a run
// in a section of its own (never mixed with other runs of the implementation).
//
// In the result documents a copy keeps the implementation's name and adds its number,
// `implementation.copy` (1, 2, …); its label is the name for copy 1 and name#k for the
// others (express, express#2), used in options.implementations, the report and the logs.
// Files: results/bench/<api>/<name>/<runId>-copy<k>.json.
import type { Implementation } from '@fairbench/harness/impl/manifest.ts';
import type { BenchResult } from './result-document.ts';

export const COPY_MARK = '#';

export interface ImplCopy {
  name: string;
  label: string;
  /** null outside an A/A run */
  copy: number | null;
}

export function copyLabel(name: string, copy: number | null | undefined): string {
  return copy && copy > 1 ? `${name}${COPY_MARK}${copy}` : name;
}

/**
 * The implementations of a run with their labels. Different names are an ordinary run;
 * one name given several times is an A/A run; a mixture of both is refused (its pairs
 * would be partly calibrations, partly comparisons).
 */
export function implCopies(names: readonly string[]): ImplCopy[] {
  const distinct = new Set(names);
  if (distinct.size === names.length) return names.map((name) => ({ name, label: name, copy: null }));
  if (distinct.size > 1)
    throw new Error(
      `IMPL names an implementation twice beside others (${names.join(',')}): an A/A calibration names one implementation only, e.g. IMPL=express,express`,
    );
  return names.map((name, i) => ({ name, label: copyLabel(name, i + 1), copy: i + 1 }));
}

/** A document's label in the report: its implementation, and the copy in an A/A run. */
export function docLabel(doc: BenchResult): string {
  return copyLabel(doc.implementation.name, doc.implementation.copy);
}

export function isCalibration(doc: BenchResult): boolean {
  return doc.implementation.copy !== undefined;
}

/** The result file's name: <runId>.json, <runId>-copy<k>.json for a copy. */
export function resultFileName(doc: BenchResult): string {
  return doc.implementation.copy === undefined ? `${doc.runId}.json` : `${doc.runId}-copy${doc.implementation.copy}.json`;
}

// ---- the runner's side: one Implementation object per copy -------------------------------

const copies = new WeakMap<Implementation, { original: Implementation; copy: number | null }>();

/**
 * The implementation as the run loop keys it: a copy's manifest carries its label as the
 * name, so the copies have their own maps, progress lines and server logs
 * (results/logs/express#2/); everything else is the implementation's.
 */
export function asCopy(impl: Implementation, copy: ImplCopy): Implementation {
  const labelled = copy.copy === null ? impl : { ...impl, manifest: { ...impl.manifest, name: copy.label } };
  copies.set(labelled, { original: impl, copy: copy.copy });
  return labelled;
}

/** The implementation itself: for the gate, the build and its image, and the document. */
export function originalOf(impl: Implementation): Implementation {
  return copies.get(impl)?.original ?? impl;
}

/** Each implementation once (an A/A run builds it once). */
export function distinctOriginals(impls: readonly Implementation[]): Implementation[] {
  return [...new Set(impls.map(originalOf))];
}

/** The document's `implementation.name` and, for a copy, its number. */
export function documentName(impl: Implementation): { name: string; copy?: number } {
  const copy = copies.get(impl)?.copy ?? null;
  return copy === null ? { name: originalOf(impl).manifest.name } : { name: originalOf(impl).manifest.name, copy };
}
