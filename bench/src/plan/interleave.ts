// The order of the implementations in each round of a case's repetitions: randomized
// multiple interleaved trials (Abedi & Brecht, "Conducting Repeatable Experiments in Highly
// Variable Cloud Computing Environments", ICPE 2017). A fixed A B, B A alternation lets a
// periodic disturbance (another job's cycle, a timer) fall on one implementation every time;
// a random order cannot. For two implementations the order is balanced: each block of two
// rounds holds A B and B A once, in random order, so each goes first equally often and a
// linear drift within a block still cancels from the pair's ratio (stats/paired.ts).
// Reproducible: the stream is named by the run and the case.
import { seededIndexSource } from '../stats/random.ts';

/** The order in round r (1-based) of the case named by `key` (run id and case id). */
export function interleavedOrder<T>(impls: readonly T[], r: number, key: string): T[] {
  if (impls.length < 2) return [...impls];
  if (impls.length === 2) {
    const block = Math.floor((r - 1) / 2);
    // One stream per case, drawn block after block: a fresh stream per block would give every
    // block the same first draw (the seeds differ in a few bits, xoroshiro's first output barely).
    const source = seededIndexSource(`interleave|${key}`);
    let flip = false;
    for (let k = 0; k <= block; k++) flip = source.index(2) === 1;
    const forward = (r % 2 === 1) !== flip;
    return forward ? [...impls] : [...impls].reverse();
  }
  const source = seededIndexSource(`interleave|${key}`);
  let out = [...impls];
  for (let round = 1; round <= r; round++) {
    out = [...impls];
    for (let i = out.length - 1; i > 0; i--) {
      const j = source.index(i + 1);
      [out[i], out[j]] = [out[j]!, out[i]!];
    }
  }
  return out;
}
