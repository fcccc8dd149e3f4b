// Adjusting the p-values of a family of comparisons, so that a report with dozens of
// verdicts does not show differences by chance alone.
//
// Benjamini–Hochberg (false-discovery rate), not Holm (family-wise error rate), because:
// - when nothing differs (an A/A run) the false-discovery rate IS the family-wise rate,
//   so an A/A report still shows any verdict at all with probability ≤ α;
// - with 5 repetitions the exact rank test's smallest p-value is 2/252 = 0.0079, which
//   Holm's first step (α/m) cannot reach in a family of more than 6 comparisons: every
//   REPEAT=5 report would be verdict-less, however large and consistent the differences;
//   BH's thresholds grow with the number of differences found (k·α/m), so a comparison
//   where many points differ keeps its verdicts, and the share of false ones stays ≤ α;
// - BH holds for independent and positively dependent p-values (PRDS); the comparisons of
//   one family share the two implementations and the machine, whose drift moves them the
//   same way (positive dependence) rather than in opposite ways.

/**
 * BH-adjusted p-values, in the input's order: p̃₍ᵢ₎ = min over j ≥ i of min(1, m·p₍ⱼ₎ / j),
 * ranks by ascending p. Declaring every comparison with p̃ ≤ α is BH's step-up procedure.
 */
export function benjaminiHochberg(pValues: readonly number[]): number[] {
  const m = pValues.length;
  for (const p of pValues) if (!(p >= 0 && p <= 1)) throw new Error(`benjaminiHochberg: p=${p} is not a probability`);
  const order = pValues.map((p, i) => ({ p, i })).sort((x, y) => x.p - y.p);
  const adjusted = new Array<number>(m);
  let running = 1;
  for (let rank = m; rank >= 1; rank--) {
    const { p, i } = order[rank - 1]!;
    running = Math.min(running, (m * p) / rank);
    adjusted[i] = running;
  }
  return adjusted;
}
