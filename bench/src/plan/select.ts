// Case selection for every API: PROTOCOL, MODEL and CASES pick benchmarked cases; the
// database-alone cases (each tier's) of every point kept come along, since the limit is part of every
// comparison (and alone it compares with nothing), unless the selection asks for none.
import picomatch from 'picomatch';
import type { CaseSelection, PlannedCase } from './api-module.ts';
import { UsageError } from '../load/failure.ts';
import { NATIVE_PROTOCOL, isDatabaseAlone } from '../record/result-document.ts';

export function selectCases<C extends PlannedCase>(cases: readonly C[], selection: CaseSelection): C[] {
  const matchers = (selection.cases ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)
    .map(caseMatcher);
  const kept = cases.filter(
    (c) =>
      !isDatabaseAlone(c.protocol) &&
      (!selection.models || selection.models.length === 0 || selection.models.includes(c.model)) &&
      (!selection.protocols || selection.protocols.length === 0 || selection.protocols.includes(c.protocol)) &&
      (matchers.length === 0 || matchers.some((m) => m(c.id))),
  );
  if (selection.limits === false) return kept;
  const points = new Set(kept.map((c) => c.point));
  const natives = selection.native
    ?.split(',')
    .map((p) => p.trim())
    .filter(Boolean)
    .map(caseMatcher);
  const nativeKept = (c: C) => c.protocol !== NATIVE_PROTOCOL || !natives || natives.some((m) => m(c.id));
  return cases.filter((c) => (isDatabaseAlone(c.protocol) ? points.has(c.point) && nativeKept(c) : kept.includes(c)));
}

/** A case pattern: a glob or, failing that, an anchored regular expression on the case id. */
export function caseMatcher(pattern: string): (id: string) => boolean {
  const glob = picomatch(pattern);
  let regex: RegExp | undefined;
  try {
    regex = new RegExp(`^(?:${pattern})$`);
  } catch {
    regex = undefined; // not a valid regular expression: a glob only
  }
  return (id) => glob(id) || (regex?.test(id) ?? false);
}

/** The filters keep no case of an API: in a run of every API an implementation serves, that API is left out. */
export class FilteredOut extends UsageError {}

/** A usage error when a MODEL or PROTOCOL value is not one the API's scenario has. */
export function checkChoices(what: 'MODEL' | 'PROTOCOL', given: readonly string[] | undefined, accepted: readonly string[], api: string): void {
  for (const v of given ?? [])
    if (!accepted.includes(v))
      throw new FilteredOut(`${what} must be ${accepted.length === 1 ? accepted[0] : `one of ${accepted.join(', ')}`} for the ${api} API, got '${v}'`);
}
