// The limit a served case is measured against: the database alone at the same load point,
// through the native client where it ran, else through the driver.
import { isDatabaseAlone, tierOf, type BenchCase, type Tier } from './result-document.ts';

/** Whether two cases are at the same load point (the same parameters, in any key order). */
export function sameParameters(a: BenchCase['parameters'], b: BenchCase['parameters']): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => a[k] === b[k]);
}

/**
 * The limit a served case is measured against (its share, its verdicts, the report's tick):
 * the database alone at the same point through the native client when that ran, else through
 * the driver. The native client is never the bottleneck; the driver client often is (it is
 * the implementation's language doing the work), so it stays a tier of the breakdown. An API
 * whose native client leaves out work every implementation must do (bcrypt) chooses the driver
 * (`limit` in the document, from its api.yaml).
 */
export function limitFor<C extends Pick<BenchCase, 'protocol' | 'tier' | 'model' | 'parameters' | 'failure' | 'repetitions'>>(
  doc: { readonly cases: readonly C[]; readonly limit?: { readonly tier: 'native' | 'driver' } | undefined },
  c: C,
): C | undefined {
  const usable = doc.cases.filter(
    (b) => isDatabaseAlone(b.protocol) && !b.failure && b.repetitions.length > 0 && b.model === c.model && sameParameters(b.parameters, c.parameters),
  );
  const [first, second]: Tier[] = doc.limit?.tier === 'driver' ? ['driver', 'native'] : ['native', 'driver'];
  return usable.find((b) => tierOf(b) === first) ?? usable.find((b) => tierOf(b) === second);
}
