// A seeded PRNG (pure-rand's xoroshiro128+) keyed by a string, so every bootstrap
// in the report draws its own reproducible stream: adding a result for one case
// does not change the intervals of another.
import { uniformInt } from 'pure-rand/distribution/uniformInt';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';

/** The report's base seed; every stream is this mixed with its key. */
export const BOOTSTRAP_SEED = 20260101;

export interface IndexSource {
  /** A uniform integer in [0, n). */
  index(n: number): number;
}

/** FNV-1a, 32 bits: a stable hash of the key (not for security, for spreading seeds). */
function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

export function seededIndexSource(key: string, seed: number = BOOTSTRAP_SEED): IndexSource {
  const rng = xoroshiro128plus((fnv1a(key) ^ seed) | 0);
  return { index: (n) => uniformInt(rng, 0, n - 1) };
}
