// make bench IMPL=<impl>[,<impl>] [API=<api>[,<api>]] [PROFILE=…] and the other options of
// bench/src/plan/option-table.ts (make help lists them), read as flags (--impl …) or as the
// Make variables make passes in the environment.
// Without API: every API the implementations all serve (their impl.yaml), one run each under one run id.
// Writes results/bench/<api>/<impl>/<runId>.json per API and implementation, after every case and at
// the end, and results/report/<runId>.html: one page covering every API of the run.
// Exit codes (bench/docs/failures.md): 0 every case measured; 3 the run went through but some cases failed
// (each marked in the result with its reason); 2 a usage error (bad option, a RESUME of another
// run); 1 the run could not be done (gate refused, set-up failed, a bug); 130 interrupted (Ctrl-C).
import { readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { onCleanup } from '@fairbench/harness/cleanup.ts';
import { runMain } from '@fairbench/harness/cli/main.ts';
import { implNames, missing, UsageError } from '@fairbench/harness/cli/usage.ts';
import { repoRoot, resultsDir } from '@fairbench/harness/paths.ts';
import { resumeStatus, selectApis } from '../plan/api-selection.ts';
import { isDatabaseAlone, type BenchResult } from '../record/result-document.ts';
import { newRunId } from '../record/result.ts';
import { formatDuration } from '../execute/progress.ts';
import { resolveOptions } from '../plan/options.ts';
import { chooseProfile, profileCases } from '../plan/profiles.ts';
import { invalidReasons } from '../record/validity.ts';
import { docLabel } from '../record/copies.ts';
import { readRequested } from '../plan/requested.ts';
import { checkRunId, RunComplete } from '../record/resume.ts';
import type { BenchOutcome, PreparedBench } from '../run.ts';
import type { FailedCase } from '../record/run-record.ts';
import { FilteredOut } from '../plan/select.ts';
import type { WarmupIterations } from '../plan/warm-up.ts';

/** make bench's exit codes (bench/docs/failures.md); runMain gives 2 (usage) and 1 (gate, set-up, bugs), Ctrl-C 130. */
const EXIT = { measured: 0, casesFailed: 3 } as const;

await runMain('bench', async () => {
  const requested = readRequested('bench');
  const impls = requested.impls;
  if (!impls) throw missing('IMPL', await implNames(), 'make bench IMPL=hapi');
  // Requested, else the profile's (bench/profiles.yaml), else the option table's default.
  const { profile, eta } = await chooseProfile(requested.profile, requested.quick === true);
  const common = resolveOptions(requested, profile, eta);
  if (requested.resume !== undefined) checkRunId(requested.resume);
  const selection = await selectApis(impls, requested.apis);
  // One run id for every API of this invocation: RESUME=<it> continues them all.
  const runId = requested.resume ?? newRunId(new Date());

  // Every API's usage errors before anything starts; then every gate; then the runs.
  const { prepareBench } = await import('../run.ts'); // (loaded once the plain options are right)
  const prepared: PreparedBench[] = [];
  const skipped: string[] = [];
  const kept: string[] = [];
  const statuses = new Map<string, Awaited<ReturnType<typeof resumeStatus>>>();
  for (const api of selection.apis) statuses.set(api, requested.resume ? await resumeStatus(api, impls[0]!, requested.resume) : 'none');
  if (requested.resume && [...statuses.values()].every((s) => s === 'none'))
    throw new UsageError(
      `RESUME=${runId}: no result of that run for ${impls.join(',')} under results/bench/{${selection.apis.join(',')}}/: give the id of a stopped run of the same IMPL`,
    );
  const notes: string[] = [];
  for (const [api, status] of statuses) {
    try {
      // The profile's cases of this API (its subset), unless CASES= names others.
      // Its own profile values where the subset sets them (a users arrival costs minutes).
      const { cases, note, quick, profile: own } = await profileCases(profile, api, requested.cases);
      const options = own === profile ? common : resolveOptions(requested, own, eta);
      // An API of the run already complete is checked like the others (same options, trees, cores), then kept.
      const prepare = (c: string | undefined) =>
        prepareBench({
          ...options,
          impls,
          api,
          ...(c ? { cases: c } : {}),
          ...(c && quick ? { quick } : {}),
          ...(status === 'none' ? { runId } : { resume: runId }),
        });
      try {
        prepared.push(await prepare(cases));
        if (note) notes.push(note);
      } catch (error) {
        // MODEL= or PROTOCOL= outside the profile's subset: every case those filters keep, said in a line.
        if (!(error instanceof FilteredOut) || !cases || requested.cases) throw error;
        prepared.push(await prepare(undefined));
        notes.push(`${api}: the ${profile.name} subset has no case that MODEL and PROTOCOL keep: every case they keep`);
      }
    } catch (error) {
      if (error instanceof RunComplete) {
        kept.push(api);
        continue;
      }
      if (!(error instanceof FilteredOut) || selection.explicit) throw error;
      skipped.push(`${api}: ${error.message}`);
    }
  }
  if (prepared.length === 0 && kept.length > 0) throw new UsageError(`RESUME=${runId}: that run is complete for ${kept.join(', ')}: nothing to resume`);
  if (prepared.length === 0) throw new UsageError(`the filters keep no case of any API ${impls.join(',')} serves: ${skipped.join('; ')}`);
  for (const line of skipped) console.log(`bench: left out ${line}`);
  for (const api of kept) console.log(`bench: ${api}: run ${runId} is complete, kept as it is`);
  console.log(
    `bench: run ${runId}: ${impls.join(',')} on ${prepared.map((p) => `${p.api} (${p.planned - p.recorded} cases${p.recorded ? `, ${p.recorded} recorded before` : ''})`).join(', ')}`,
  );
  console.log(
    `bench: profile ${profile.name} (${profile.description}): ${common.repeat} × ${common.durationSeconds} s after ${common.warmupSeconds} s of warm-up${firstWarmupNote(common)}${warmupIterationsNote(common.warmupIterations)}`,
  );
  for (const note of notes) console.log(`bench: ${note}`);
  // The plan's time from the first line: the cases' load, k6's start per repetition, a restart per case.
  const planned = prepared.reduce((a, p) => a + p.plannedSeconds, 0);
  console.log(
    `bench: the plan takes about ${formatDuration(planned * 1000)} of measurement (besides the conformance gate, the seeding and the generator's ceiling before each API)`,
  );

  // A pair that does not pass refuses the whole run (GateRefusal: one line, exit code 1).
  for (const p of prepared) await p.gate();
  const outcomes: BenchOutcome[] = [];
  // Stopped between or inside the APIs' runs (Ctrl-C, an error): one RESUME continues every API.
  const hint = onCleanup('bench: how to continue the run', async () => {
    const left = prepared.slice(outcomes.length).map((p) => p.api);
    console.error(`bench: run ${runId} stopped with ${left.join(', ')} not finished: the same options and RESUME=${runId} continue it`);
  });
  for (const p of prepared) {
    if (prepared.length > 1) console.log(`\n== bench: ${p.api} (${prepared.indexOf(p) + 1} of ${prepared.length})`);
    outcomes.push(await p.run());
  }
  hint();

  // The report's modules (Vega among them) load only now: a usage error is answered at once.
  const { comparisonMarkdown } = await import('../report/comparison-summary.ts');
  const { writeReport } = await import('../report/index.ts');
  const { buildModel } = await import('../report/model.ts');
  const { summaryMarkdown } = await import('../report/summary.ts');
  const { writeCasesCsv } = await import('../report/csv.ts');
  const { writeComparisonsCsv } = await import('../report/comparisons-csv.ts');
  const written: string[] = [];
  const setAside: string[] = [];
  for (const outcome of outcomes) {
    const docs = await Promise.all(outcome.files.map(async (file) => ({ file, doc: JSON.parse(await readFile(file, 'utf8')) as BenchResult })));
    for (const { doc } of docs) setAside.push(...invalidLines(doc));
    for (const { doc } of docs) console.log(`\n${summaryMarkdown(doc)}`);
    // Several implementations (or copies): the pairs' verdicts, as the report computes them.
    if (docs.length > 1) {
      const model = buildModel(docs);
      console.log(comparisonMarkdown(model));
      written.push(await writeComparisonsCsv(docs[0]!.file, docs[0]!.doc.runId, model));
    }
    for (const { file, doc } of docs) written.push(file, await writeCasesCsv(file, doc));
  }
  for (const file of written) console.log(`bench: result → ${relative(repoRoot, file)}`);
  // One page for this run: every API it covers (those kept from before included).
  const apis = [...prepared.map((p) => p.api), ...kept];
  const names = new Set(impls);
  const report = await writeReport(
    resultsDir,
    join(resultsDir, 'report', `${runId}.html`),
    (r) => r.doc.runId === runId && apis.includes(r.doc.api) && names.has(r.doc.implementation.name),
  );
  console.log(
    `bench: the report of run ${runId} (${report.apis.map((a) => a.api).join(', ')}): ${relative(repoRoot, report.file)} (open it in a browser; make report renders every result under results/bench)`,
  );
  const failed = outcomes.flatMap((o) => o.failed);
  // Invalid repetitions are loud: the figures left are fewer, and the server (or the data) failed.
  if (setAside.length)
    console.log(
      `bench: INVALID repetitions, set aside from every figure and verdict (in the result's invalidRepetitions; exit code ${EXIT.casesFailed}):\n${[...new Set(setAside)].join('\n')}`,
    );
  if (failed.length === 0 && setAside.length === 0) return EXIT.measured;
  if (failed.length) console.log(`bench: ${failedLine(failed)}`);
  return EXIT.casesFailed;
});

/** "  rest/closed/c32-text · express: 2 of 9 repetitions: the server answered 503 × 4 …" per case with invalid repetitions. */
function invalidLines(doc: BenchResult): string[] {
  return doc.cases.flatMap((c) => {
    const invalid = c.invalidRepetitions ?? [];
    if (invalid.length === 0) return [];
    const who = isDatabaseAlone(c.protocol) ? '' : ` · ${docLabel(doc)}`;
    return [`  ${c.id}${who}: ${invalid.length} of ${invalid.length + c.repetitions.length} repetitions: ${invalidReasons(invalid).join('; ')}`];
  });
}

/** "2 of 36 cases failed: rest/closed/c32-table · express (time-limit: …), …" — a database-alone case once. */
function failedLine(failed: readonly FailedCase[]): string {
  const byCase = new Map<string, FailedCase[]>();
  for (const f of failed) byCase.set(f.case.id, [...(byCase.get(f.case.id) ?? []), f]);
  const items = [...byCase].map(([id, fs]) => {
    const who = isDatabaseAlone(fs[0]!.case.protocol) ? '' : ` · ${fs.map((f) => f.impl).join(', ')}`;
    const f = fs[0]!.case.failure;
    return `  ${id}${who}: ${f.kind}${f.repetition ? ` in repetition ${f.repetition}` : ''}: ${f.reason}`;
  });
  return `${byCase.size} case${byCase.size === 1 ? '' : 's'} failed (recorded as failed in the result, with what they measured; exit code ${EXIT.casesFailed}):\n${items.join('\n')}`;
}

function warmupIterationsNote(w: WarmupIterations): string {
  return w.max > 0
    ? `; before them, per implementation and case, unrecorded warm-up iterations until the rate rises less than ${w.steadyWithinPercent}% (at most ${w.max})`
    : '';
}

function firstWarmupNote(o: { warmupSeconds: number; firstWarmupSeconds: number }): string {
  return o.firstWarmupSeconds > o.warmupSeconds ? ` (${o.firstWarmupSeconds} s before a case's first load, from cold)` : '';
}
