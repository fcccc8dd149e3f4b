// The contract's mutation check: each defect of apis/<api>/pact/mutants/<impl>.yaml is applied
// to a scratch copy of the implementation (conformance's mutate(), the same edits as make
// mutants), and the pair's provider verification must fail on the interactions listed under
// killedBy. With `conformance`, the conformance suite also runs on each copy, to confirm the
// file's claim of whether it catches the defect too (catches) or only the contract does (misses).
import { readFile, readdir, rm } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { parse } from 'yaml';
import { loadImplementation } from '@fairbench/harness/impl/manifest.ts';
import { repoRoot } from '@fairbench/harness/paths.ts';
import { shuttingDown } from '@fairbench/harness/cleanup.ts';
import { conformanceApi } from '@fairbench/conformance/apis.ts';
import { newAjv } from '@fairbench/harness/json-schema.ts';
import { mutate, type Mutant, type MutantOutcome, type MutantsFile } from '@fairbench/conformance/mutants.ts';
import { printBanner } from '@fairbench/conformance/report/console.ts';
import { loadSpecValidators, runTarget, startDatabases, suiteFingerprints } from '@fairbench/conformance/run.ts';
import { pactApis } from './apis.ts';
import { ensurePacts } from './run.ts';
import { verifyTarget } from './verify.ts';
import schema from '../schemas/mutants.schema.json' with { type: 'json' };

/** A planted defect of conformance's shape, with the file's claim of what the suite does with it. */
interface PactMutant extends Mutant {
  readonly conformance: 'catches' | 'misses';
}
interface PactMutantsFile extends MutantsFile {
  readonly mutants: readonly PactMutant[];
}

/** Killed: the provider verification failed on every interaction in killedBy. */
export interface PactMutantOutcome extends MutantOutcome {
  readonly verifyMs: number;
  readonly claimed: 'catches' | 'misses';
  /** What the conformance suite did with the copy, when it ran. */
  readonly conformance?: 'catches' | 'misses';
}

const validate = newAjv().compile<PactMutantsFile>(schema);

async function load(file: string): Promise<PactMutantsFile> {
  const data: unknown = parse(await readFile(file, 'utf8'));
  if (!validate(data)) throw new Error(`${file}: ${(validate.errors ?? []).map((e) => `${e.instancePath} ${e.message ?? ''}`).join('; ')}`);
  if (`${data.implementation}.yaml` !== file.split('/').pop()) throw new Error(`${file}: implementation '${data.implementation}' must match the file name`);
  return data;
}

/** short (make test): only the defects the conformance suite misses, which make mutants does not stand in for. */
/** `impls`: only the defects planted in these implementations (make test's pool: a lane each). */
export async function runPactMutants(options: {
  conformance: boolean;
  apis?: readonly string[];
  impls?: readonly string[];
  short?: boolean;
}): Promise<PactMutantOutcome[]> {
  const apis = await pactApis(options.apis);
  const found: { api: (typeof apis)[number]; file: string; suite: PactMutantsFile }[] = [];
  const picked = (n: string) => n.endsWith('.yaml') && (options.impls === undefined || options.impls.includes(n.slice(0, -'.yaml'.length)));
  for (const api of apis) {
    const dir = join(api.dir, 'pact', 'mutants');
    for (const f of (await readdir(dir).catch(() => [] as string[])).filter(picked).sort()) {
      const suite = await load(join(dir, f));
      // In the short form, a file with no defect only the contract catches starts nothing.
      if (!options.short || suite.mutants.some((m) => m.conformance === 'misses')) found.push({ api, file: join(dir, f), suite });
    }
  }
  const used = [...new Map(found.map((f) => [f.api.name, f.api])).values()];
  const consumers = await ensurePacts(used);
  const failed = consumers.filter((c) => !c.passed).map((c) => c.api);
  if (failed.length > 0) throw new Error(`the consumer tests of ${failed.join(', ')} fail: no pact to verify the mutants against`);
  // Local unless FAIRBENCH_RUNTIME says otherwise: each mutant would otherwise be an image build.
  const databases = await startDatabases(
    used.flatMap((a) => a.manifest.databases),
    { default: 'local' },
  );
  const spec = options.conformance ? await loadSpecValidators() : undefined;
  const outcomes: PactMutantOutcome[] = [];
  try {
    for (const { api, file, suite } of found) {
      const original = await loadImplementation(suite.implementation);
      const fingerprints = options.conformance ? await suiteFingerprints(suite.implementation) : undefined;
      const target = await conformanceApi(api.name);
      for (const mutant of suite.mutants) {
        if (options.short && mutant.conformance !== 'misses') continue;
        printBanner(`pact mutant ${suite.implementation} × ${api.name}/${mutant.id}: ${mutant.why}`);
        const copy = await mutate(original, { ...mutant, id: `pact-${mutant.id}` });
        try {
          // Only the listed interactions are replayed alone: the run as a whole must fail, and each of them.
          const verdict = await verifyTarget({ impl: copy, api: target }, api, databases, options.conformance ? undefined : mutant.killedBy);
          if (shuttingDown()) throw new Error('interrupted');
          const missed = mutant.killedBy.filter((d) => !verdict.failing.includes(d));
          const killed = verdict.status === 'failed' && missed.length === 0;
          console.log(
            `  ${killed ? 'killed' : 'SURVIVED'}: ${verdict.failed} of ${verdict.total} interactions failed (${verdict.failing.join('; ') || verdict.reason || 'none'})${missed.length ? `; expected failures that passed: ${missed.join('; ')}` : ''}`,
          );
          let conformance: 'catches' | 'misses' | undefined;
          if (spec && fingerprints) {
            const cv = await runTarget({ impl: copy, api: target }, databases, spec, fingerprints, { onCase: () => {} });
            conformance = cv.status === 'passed' ? 'misses' : 'catches';
            console.log(
              `  conformance ${conformance} it (${cv.failed} of ${cv.total} cases failed${cv.failing.length ? `: ${cv.failing.slice(0, 4).join(', ')}` : ''}); the file says ${mutant.conformance}`,
            );
          }
          outcomes.push({
            file: relative(repoRoot, file),
            mutant: mutant.id,
            killed,
            failing: verdict.failing,
            missed,
            verifyMs: verdict.verifyMs ?? 0,
            claimed: mutant.conformance,
            ...(conformance ? { conformance } : {}),
          });
        } finally {
          await rm(copy.dir, { recursive: true, force: true });
        }
      }
    }
  } finally {
    for (const db of databases.values()) await db.stop();
  }
  return outcomes;
}
