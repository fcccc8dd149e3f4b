// A paper's compact result (docs/papers/<api>.json, bench/schemas/paper-result.schema.json):
// what the papers page needs from one run of the paper's pair and nothing else — per claim
// and comparison (a case, or one request type of it) each side's figure per repetition,
// and the run's provenance. Committed, so that the page can be regenerated and diffed
// without the full result documents.
import { docLabel } from '../../record/copies.ts';
import { isDatabaseAlone, type BenchResult } from '../../record/result-document.ts';
import { caseMatcher } from '../../plan/select.ts';
import { metricOf, pairOf, type PaperClaims } from './claims.ts';

export interface CompactUnit {
  case: string;
  requestType?: string;
  /** pair[0]'s figure in each repetition that recorded it (repetitions that broke the data's conditions left out). */
  a: number[];
  b: number[];
  /** Of those repetitions, how many of each side's k6 was generator-bound (the run's rule); absent when none. */
  bound?: [number, number];
}

export interface CompactResult {
  schemaVersion: 1;
  api: string;
  /** The hash of what the run measured (bench/src/cli/papers.ts inputsHash): make papers runs again when it changes. */
  inputs: string;
  runId: string;
  commit: string | null;
  dirty: boolean;
  specHash: string;
  seed: number;
  profile: string | null;
  options: { repeat: number; durationSeconds: number; warmupSeconds: number; quick: boolean };
  machine: { cpuModel: string; cores: number; kernel: string; memoryBytes: number };
  database: string;
  generator: string;
  implementations: { label: string; framework: string; runtime: string }[];
  claims: { id: string; units: CompactUnit[] }[];
}

const nameVersion = (x: { name: string; version: string }) => `${x.name} ${x.version}`;

/** The compact result of one run's documents (one per implementation of the paper's pair). */
export function compactResult(paper: PaperClaims, docs: readonly BenchResult[], inputs: string): CompactResult {
  const first = docs[0];
  if (!first) throw new Error(`${paper.api}: no result documents to compact`);
  const byLabel = new Map(docs.map((d) => [docLabel(d), d]));
  const claims = paper.claims.claims.map((claim) => {
    const [a, b] = pairOf(paper.claims, claim).map((l) => byLabel.get(l));
    if (claim.cannotCheck || !a || !b) return { id: claim.id, units: [] };
    const matches = caseMatcher(claim.cases);
    const units = a.cases.flatMap((ca): CompactUnit[] => {
      const cb = b.cases.find((c) => c.id === ca.id);
      if (!cb || isDatabaseAlone(ca.protocol) || !matches(ca.id)) return [];
      return (claim.requestTypes ?? [undefined]).flatMap((requestType) => {
        // Each valid repetition that recorded the figure, with whether k6 was bound in it.
        const measured = (reps: typeof ca.repetitions) =>
          reps.flatMap((r) => {
            const value = r.invalid ? undefined : metricOf(claim.metric, r, requestType);
            return value === undefined ? [] : [{ value, bound: r.generatorBound === true }];
          });
        const [ma, mb] = [measured(ca.repetitions), measured(cb.repetitions)];
        const bound: [number, number] = [ma.filter((m) => m.bound).length, mb.filter((m) => m.bound).length];
        const unit: CompactUnit = {
          case: ca.id,
          ...(requestType ? { requestType } : {}),
          a: ma.map((m) => m.value),
          b: mb.map((m) => m.value),
          ...(bound[0] + bound[1] > 0 ? { bound } : {}),
        };
        return unit.a.length && unit.b.length ? [unit] : [];
      });
    });
    return { id: claim.id, units };
  });
  return {
    schemaVersion: 1,
    api: paper.api,
    inputs,
    runId: first.runId,
    commit: first.source.commit,
    dirty: first.source.dirty,
    specHash: first.source.specHash,
    seed: first.options.seed ?? first.dataset.seed,
    profile: first.options.profile ?? null,
    options: {
      repeat: first.options.repeat,
      durationSeconds: first.options.durationSeconds,
      warmupSeconds: first.options.warmupSeconds,
      quick: first.options.quick,
    },
    machine: { cpuModel: first.machine.cpuModel, cores: first.machine.cores, kernel: first.machine.kernel, memoryBytes: first.machine.memoryBytes },
    database: `${first.database.engine} ${first.database.version}`,
    generator: `${first.generator.name} ${first.generator.version}`,
    implementations: docs.map((d) => ({
      label: docLabel(d),
      framework: nameVersion(d.implementation.framework),
      runtime: nameVersion(d.implementation.runtime),
    })),
    claims,
  };
}
