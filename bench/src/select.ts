// Case selection shared by the users and documents benchmarks (forum keeps its own in
// scenario.ts): PROTOCOL, MODEL and CASES pick benchmarked cases; the database-alone case
// of every point kept comes along, since the limit is part of every comparison.
import { caseMatcher } from '../scenario.ts';
import type { CaseSelection, PlannedCase } from './types.ts';

export interface PointCase extends PlannedCase {
  /** The load point, shared by a benchmarked case and its baseline: <model>/<point>. */
  readonly point: string;
}

export function selectCases<C extends PointCase>(cases: readonly C[], selection: CaseSelection): C[] {
  const matchers = (selection.cases ?? '').split(',').map((p) => p.trim()).filter(Boolean).map(caseMatcher);
  const kept = cases.filter(
    (c) =>
      c.protocol !== 'database' &&
      (!selection.models || selection.models.length === 0 || selection.models.includes(c.model)) &&
      (!selection.protocols || selection.protocols.length === 0 || selection.protocols.includes(c.protocol)) &&
      (matchers.length === 0 || matchers.some((m) => m(c.id))),
  );
  const points = new Set(kept.map((c) => c.point));
  return cases.filter((c) => (c.protocol === 'database' ? points.has(c.point) : kept.includes(c)));
}
