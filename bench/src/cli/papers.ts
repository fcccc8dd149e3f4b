// make papers: each paper's pair through the benchmark runner (make bench IMPL=<pair>
// API=<api> PROFILE=papers), its compact result into docs/papers/<api>.json, then the page
// docs/papers.md. A paper whose compact result was measured from the current inputs is
// skipped, and a stopped papers run of the pair is resumed, so the whole can be run again
// until it is done. --page (make papers-page): the page from the committed compact results
// alone, running nothing. --api <api> (API=): that paper alone. --recompact: each compact result rewritten from its run's
// documents under results/bench (after its format changes), measuring nothing, then the page.
import { spawn } from 'node:child_process';
import { join, relative } from 'node:path';
import { runMain } from '@fairbench/harness/cli/main.ts';
import { parseCli, UsageError } from '@fairbench/harness/cli/usage.ts';
import { treeHash } from '@fairbench/harness/fingerprint.ts';
import { repoRoot, resultsDir } from '@fairbench/harness/paths.ts';
import { loadApi } from '@fairbench/harness/api/manifest.ts';
import { docLabel } from '../record/copies.ts';
import type { BenchResult } from '../record/result-document.ts';
import { loadResults } from '../report/load.ts';
import { loadAllClaims, type PaperClaims } from '../report/papers/claims.ts';
import { compactResult } from '../report/papers/compact.ts';
import { paperEntries, readCompact, writeCompact, writePapersPage } from '../report/papers/files.ts';

const PROFILE = 'papers';
/** make bench's exit code when the run finished with some cases failed: its documents are still the run's. */
const FINISHED_WITH_FAILURES = 3;

/** An API folder's subfolders that check implementations and measure nothing (planted cheats included). */
const CHECKS_ONLY = ['cheats', 'conformance', 'pact', 'resilience', 'test'];

/**
 * What a paper's run measured: the API folder but for what only checks it (its conformance
 * cases, pact, resilience scenarios and tests: a new case or planted defect measures nothing
 * anew), the pair's implementations, the spec, the profiles and the k6 library. The report's
 * code is not in it: a new page needs no new run.
 */
async function inputsHash(paper: PaperClaims): Promise<string> {
  const apiDir = relative(repoRoot, (await loadApi(paper.api)).dir);
  const impls = paper.claims.run.pair.map((label) => join('impl', label.split('@')[0]!));
  const checksOnly = CHECKS_ONLY.map((d) => `${join(apiDir, d)}/`);
  return treeHash([apiDir, ...impls, 'spec', join('bench', 'profiles.yaml'), join('bench', 'k6')], (file) => !checksOnly.some((d) => file.startsWith(d)));
}

/** The pair's documents of the API's papers runs, newest run first, grouped by run. */
async function papersRuns(paper: PaperClaims): Promise<BenchResult[][]> {
  const { runs } = await loadResults(resultsDir);
  const pair = paper.claims.run.pair;
  const docs = runs.map((r) => r.doc).filter((d) => d.api === paper.api && d.options.profile === PROFILE && pair.includes(docLabel(d)));
  const ids = [...new Set(docs.map((d) => d.runId))].sort().reverse();
  return ids.map((id) => docs.filter((d) => d.runId === id)).filter((run) => run.length === pair.length);
}

function bench(args: readonly string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(import.meta.dirname, 'bench.ts'), ...args], { stdio: 'inherit' });
    child.on('error', reject);
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

/** Runs (or resumes) the paper's pair unless its compact result is current; false when the run failed. */
async function runPaper(paper: PaperClaims): Promise<boolean> {
  const inputs = await inputsHash(paper);
  const existing = await readCompact(paper.api);
  if (existing?.inputs === inputs) {
    console.log(`papers: ${paper.api}: docs/papers/${paper.api}.json is current (run ${existing.runId}): skipped`);
    return true;
  }
  const stopped = (await papersRuns(paper)).find((run) => run.some((d) => d.complete === false));
  const args = ['--impl', paper.claims.run.pair.join(','), '--api', paper.api, '--profile', PROFILE, ...(stopped ? ['--resume', stopped[0]!.runId] : [])];
  console.log(
    `papers: ${paper.api}: ${stopped ? `resuming run ${stopped[0]!.runId}` : 'running'} make bench IMPL=${paper.claims.run.pair.join(',')} API=${paper.api} PROFILE=${PROFILE}`,
  );
  const code = await bench(args);
  if (code !== 0 && code !== FINISHED_WITH_FAILURES) {
    console.error(`papers: ${paper.api}: make bench exited with ${code}; its compact result is left as it was`);
    return false;
  }
  const run = (await papersRuns(paper)).find((r) => r.every((d) => d.complete !== false));
  if (!run) throw new Error(`${paper.api}: make bench finished but no complete ${PROFILE} run of ${paper.claims.run.pair.join(', ')} is under results/bench/`);
  const file = await writeCompact(compactResult(paper, run, inputs));
  console.log(`papers: ${paper.api}: ${relative(repoRoot, file)} (run ${run[0]!.runId})`);
  return true;
}

/** Rewrites the paper's compact result from the documents of the run it names, keeping the inputs it recorded; false when they are gone. */
async function recompact(paper: PaperClaims): Promise<boolean> {
  const existing = await readCompact(paper.api);
  if (!existing) return true;
  const run = (await papersRuns(paper)).find((r) => r[0]!.runId === existing.runId);
  if (!run) {
    console.error(`papers: ${paper.api}: run ${existing.runId} is not under results/bench/: docs/papers/${paper.api}.json is left as it was`);
    return false;
  }
  const file = await writeCompact(compactResult(paper, run, existing.inputs));
  console.log(`papers: ${paper.api}: ${relative(repoRoot, file)} rewritten from run ${existing.runId}`);
  return true;
}

await runMain('papers', async () => {
  const { values } = parseCli({ options: { page: { type: 'boolean' }, recompact: { type: 'boolean' }, api: { type: 'string' } } });
  const papers = await loadAllClaims();
  // API=<api>: that paper alone is run (or rewritten); the page is still every paper's.
  const chosen = values.api ? papers.filter((p) => p.api === values.api) : papers;
  if (chosen.length === 0) throw new UsageError(`API must be one of ${papers.map((p) => p.api).join(', ')}, got '${values.api}'`);
  let ok = true;
  if (values.recompact) for (const paper of chosen) ok = (await recompact(paper)) && ok;
  else if (!values.page) for (const paper of chosen) ok = (await runPaper(paper)) && ok;
  const line = await writePapersPage(await paperEntries(papers));
  console.log(`papers: docs/papers.md and the README's line: ${line}`);
  return ok;
});
