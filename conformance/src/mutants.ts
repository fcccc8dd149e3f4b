// Mutation check of the suite itself: applies each defect of
// apis/<api>/conformance/mutants/<impl>.yaml to a scratch copy of the implementation,
// runs the API's suite against the copy, and requires it to fail on the listed cases;
// then each defect of apis/<api>/test/mutants.yaml (the API's own code) against its own tests.
import { readFile, readdir, rm } from 'node:fs/promises';
import { loadApis } from '@fairbench/harness/api/manifest.ts';
import { basename, join, relative } from 'node:path';
import { parse } from 'yaml';
import { loadImplementation, type Implementation } from '@fairbench/harness/impl/manifest.ts';
import { shuttingDown } from '@fairbench/harness/cleanup.ts';
import { repoRoot, resultsDir } from '@fairbench/harness/paths.ts';
import { loadApiMutants, runApiMutant } from './api-mutants.ts';
import { applyEdit, copyImplFolder, linkInstalls } from '@fairbench/harness/impl/edit.ts';
import { warmCopy, type WarmCopy } from './warm-copy.ts';
import type { Verdict } from './report/verdict.ts';
import { conformanceApi } from './apis.ts';
import { newAjv } from '@fairbench/harness/json-schema.ts';
import { printBanner } from './report/console.ts';
import { loadSpecValidators, runTarget, startDatabases, suiteFingerprints } from './run.ts';
import mutantsSchema from '../schemas/mutants.schema.json' with { type: 'json' };

export interface Mutant {
  readonly id: string;
  readonly why: string;
  readonly file: string;
  readonly replace: string;
  readonly with: string;
  readonly killedBy: readonly string[];
}
export interface MutantsFile {
  readonly implementation: string;
  readonly mutants: readonly Mutant[];
}

export interface MutantOutcome {
  readonly file: string;
  readonly mutant: string;
  /** Killed: the suite failed on every case in killedBy. */
  readonly killed: boolean;
  readonly failing: readonly string[];
  readonly missed: readonly string[];
}

const validate = newAjv().compile<MutantsFile>(mutantsSchema);

export async function loadMutants(file: string): Promise<MutantsFile> {
  const data: unknown = parse(await readFile(file, 'utf8'));
  if (!validate(data)) throw new Error(`${file}: ${(validate.errors ?? []).map((e) => `${e.instancePath} ${e.message ?? ''}`).join('; ')}`);
  return data;
}

/**
 * A copy of the implementation with one edit; the edit must match exactly once (make pact's
 * mutants use it too). Where the build only installs packages (`installs` in impl.yaml) and the
 * edit is below the top level (not the package manifest or lock file), the copy links the
 * original's installed folder and skips the build: the same packages, seconds less per defect.
 */
export async function mutate(impl: Implementation, mutant: Pick<Mutant, 'id' | 'file' | 'replace' | 'with'>): Promise<Implementation> {
  const dir = join(resultsDir, 'mutants', `${impl.manifest.name}-${mutant.id}`);
  await rm(dir, { recursive: true, force: true });
  await copyImplFolder(impl, dir);
  await applyEdit(dir, mutant);
  if (!(await linkInstalls(impl, dir, mutant.file))) return { ...impl, dir };
  const { build: _built, ...manifest } = impl.manifest;
  return { ...impl, dir, manifest };
}

interface Trial {
  readonly verdict: Pick<Verdict, 'status' | 'failed' | 'total' | 'failing'>;
  /** Why the suite did not run, when it did not. */
  readonly error?: string;
}

/** Plants the defect (in the warm copy, or a copy of its own), runs the suite on it, takes the defect out again. */
export async function plantAndRun(
  copy: WarmCopy | null,
  original: Implementation,
  mutant: Mutant,
  suite: (impl: Implementation) => Promise<Verdict>,
): Promise<Trial> {
  const planted = copy
    ? await copy.plant(mutant).catch((error: unknown) => new Error(`the defect did not build: ${String(error)}`))
    : await mutate(original, mutant);
  try {
    if (planted instanceof Error) return { verdict: { status: 'error', failed: 0, total: 0, failing: [] }, error: planted.message };
    const verdict = await suite(planted);
    return verdict.status === 'error' ? { verdict, error: verdict.reason ?? 'the suite did not run' } : { verdict };
  } finally {
    if (copy) await copy.undo();
    else if (!(planted instanceof Error)) await rm(planted.dir, { recursive: true, force: true });
  }
}

/**
 * `only`: the APIs to check (all when absent), e.g. to run one API's defects while working on it;
 * `pick`: only these implementations' defects, and of those only the ids named (the APIs' own
 * defects are then left out).
 */
export async function runMutants(
  only?: readonly string[],
  pick: { impls?: readonly string[]; ids?: readonly string[]; ownCodeOnly?: boolean } = {},
): Promise<MutantOutcome[]> {
  const selected = (await loadApis()).filter((api) => only === undefined || only.includes(api.manifest.name));
  // Each API keeps the defects planted in each implementation of it: apis/<api>/conformance/mutants/<impl>.yaml.
  const found: { api: string; file: string }[] = [];
  for (const api of selected) {
    const dir = join(api.dir, 'conformance', 'mutants');
    const names = await readdir(dir).catch(() => [] as string[]);
    const picked = (n: string) => n.endsWith('.yaml') && (pick.impls === undefined || pick.impls.includes(n.slice(0, -'.yaml'.length)));
    for (const f of names.filter(picked).sort()) found.push({ api: api.manifest.name, file: join(dir, f) });
  }
  if (pick.ownCodeOnly === true) found.length = 0;
  const files = found.map((f) => f.file);
  const suites = await Promise.all(files.map((f) => loadMutants(f)));
  for (const [i, s] of suites.entries()) {
    if (`${s.implementation}.yaml` !== basename(files[i]!)) throw new Error(`${files[i]}: implementation '${s.implementation}' must match the file name`);
  }
  const apis = await Promise.all(found.map((f) => conformanceApi(f.api)));
  // Local unless FAIRBENCH_RUNTIME says otherwise: each mutant would otherwise be an image build.
  const outcomes: MutantOutcome[] = [];
  const databases =
    suites.length === 0
      ? new Map<never, never>()
      : await startDatabases(
          apis.flatMap((a) => a.manifest.databases),
          { default: 'local' },
        );
  const spec = await loadSpecValidators();
  // A compiled implementation's defects are each built from one warm copy (warm-copy.ts), made once for all its APIs.
  const warm = new Map<string, WarmCopy | null>();
  const warmOf = async (impl: Implementation) => {
    if (!warm.has(impl.manifest.name)) warm.set(impl.manifest.name, await warmCopy(impl));
    return warm.get(impl.manifest.name)!;
  };
  try {
    for (const [i, suite] of suites.entries()) {
      const original = await loadImplementation(suite.implementation);
      const fingerprints = await suiteFingerprints(suite.implementation);
      for (const mutant of suite.mutants.filter((m) => pick.ids === undefined || pick.ids.includes(m.id))) {
        printBanner(`mutant ${suite.implementation}/${mutant.id}: ${mutant.why}`);
        const file = relative(repoRoot, files[i]!);
        const copy = await warmOf(original);
        // Only the cases that must catch the defect: the kill needs no other (and the whole suite per defect is most of make test).
        const killers = (impl: Implementation) =>
          runTarget({ impl, api: apis[i]! }, databases, spec, fingerprints, { onCase: () => {}, only: mutant.killedBy });
        // A trial that never ran the suite (the copy did not build or start: a busy machine's
        // compiler server, a start past its deadline) proves nothing either way: once more.
        let trial = await plantAndRun(copy, original, mutant, killers);
        if (trial.error !== undefined) {
          console.log(`  the trial did not run the suite (${trial.error.split('\n')[0]}): once more`);
          trial = await plantAndRun(copy, original, mutant, killers);
        }
        if (shuttingDown()) throw new Error('interrupted');
        const verdict = trial.verdict;
        const missed = mutant.killedBy.filter((id) => !verdict.failing.includes(id));
        const killed = verdict.status === 'failed' && missed.length === 0;
        console.log(
          `  ${killed ? 'killed' : 'SURVIVED'}: ${trial.error ?? `${verdict.failed} of ${verdict.total} cases failed`}${missed.length ? `; expected failures that passed: ${missed.join(', ')}` : ''}`,
        );
        console.log(`  failing: ${verdict.failing.slice(0, 8).join(', ')}${verdict.failing.length > 8 ? ', …' : ''}`);
        outcomes.push({ file, mutant: mutant.id, killed, failing: verdict.failing, missed });
      }
    }
  } finally {
    for (const copy of warm.values()) await copy?.remove();
  }
  for (const db of databases.values()) await db.stop();
  // The APIs' own code (generators, shared client draws), killed by their own tests.
  for (const api of (pick.impls === undefined && pick.ids === undefined) || pick.ownCodeOnly === true ? selected : []) {
    const own = await loadApiMutants(api);
    for (const mutant of own?.mutants ?? []) {
      printBanner(`mutant apis/${api.manifest.name}/${mutant.id}: ${mutant.why}`);
      const outcome = await runApiMutant(api, own!.file, mutant);
      if (shuttingDown()) throw new Error('interrupted');
      console.log(
        `  ${outcome.killed ? 'killed' : 'SURVIVED'}: ${outcome.failing.length} tests failed${outcome.missed.length ? `; expected failures that passed: ${outcome.missed.join(', ')}` : ''}`,
      );
      outcomes.push(outcome);
    }
  }
  return outcomes;
}
