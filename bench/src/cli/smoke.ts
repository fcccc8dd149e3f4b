// make bench-smoke → the QUICK benchmark of every API whose manifest names a smoke selection
// (bench.smoke), for every implementation that serves it and can run here, through the same
// gate and runner as make bench: one run per API, its implementations side by side. One that
// cannot run is skipped loudly. --one-per-api (make test): the first implementation (by name)
// that serves each API, since the smoke mostly checks the API's benchmark pipeline (k6 script,
// baseline, result, report), which conformance and the pacts already check per implementation;
// an API whose smoke says everyImplementation checks something of each implementation that
// they do not (tpcc: TPC-C's consistency after a load), and keeps all of them. --api: only those
// APIs (make test runs each API's smoke as a lane of its pool, conformance/src/cli/checks.ts).
import { readFile } from 'node:fs/promises';
import { loadApis, smokeImplementations } from '@fairbench/harness/api/manifest.ts';
import { runMain } from '@fairbench/harness/cli/main.ts';
import { checkPairs, listArg, parseCli } from '@fairbench/harness/cli/usage.ts';
import { tally } from '@fairbench/harness/tally.ts';
import { loadImplementations } from '@fairbench/harness/impl/manifest.ts';
import { missingToolchain } from '@fairbench/harness/impl/toolchain.ts';
import { summaryMarkdown } from '../report/summary.ts';
import type { BenchResult } from '../record/result-document.ts';
import { chooseProfile } from '../plan/profiles.ts';
import { runBench } from '../run.ts';
import { resolveOptions } from '../plan/options.ts';

await runMain('bench-smoke', async () => {
  const { values } = parseCli({ options: { 'one-per-api': { type: 'boolean', default: false }, api: { type: 'string' } } });
  const only = listArg(values.api);
  await checkPairs(undefined, only);
  const impls = await loadImplementations();
  // The quick profile's repetitions, window and warm-up (bench/profiles.yaml), on the smoke's cases.
  const { profile, eta } = await chooseProfile('quick', false);
  let ran = 0;
  for (const api of (await loadApis()).filter((a) => only === undefined || only.includes(a.manifest.name))) {
    const smoke = api.manifest.bench.smoke;
    if (!smoke) continue;
    const runnable: string[] = [];
    for (const impl of impls.filter((i) => i.manifest.apis.includes(api.manifest.name))) {
      const missing = await missingToolchain(impl);
      if (missing) console.log(`!! SKIPPED smoke ${impl.manifest.name} × ${api.manifest.name}: ${missing}`);
      else runnable.push(impl.manifest.name);
    }
    if (runnable.length === 0) continue;
    const chosen = values['one-per-api'] === true ? smokeImplementations(api.manifest, runnable) : runnable;
    for (const name of runnable.slice(chosen.length)) {
      console.log(`!! smoke ${name} × ${api.manifest.name} not in this run: make test smokes this API once (make bench-smoke runs every pair)`);
    }
    console.log(`== smoke ${chosen.join(', ')} × ${api.manifest.name} (CASES=${smoke.cases})`);
    // The quick profile's options with the table's defaults, as make bench QUICK=1 resolves them.
    const outcome = await runBench({
      ...resolveOptions({}, profile, eta),
      impls: chosen,
      api: api.manifest.name,
      cases: smoke.cases,
      ...(smoke.native !== undefined ? { native: smoke.native } : {}),
    });
    if (outcome.failed.length > 0)
      throw new Error(
        `the smoke of ${api.manifest.name} failed in ${outcome.failed.length} case(s): ${outcome.failed.map((f) => `${f.impl} ${f.case.id}: ${f.case.failure.reason}`).join('; ')}`,
      );
    for (const file of outcome.files)
      console.log(`\n${summaryMarkdown(JSON.parse(await readFile(file, 'utf8')) as BenchResult)}\nbench-smoke: result → ${file}`);
    ran += chosen.length;
  }
  tally('bench-smoke', { runs: ran });
  if (ran === 0) throw new Error('no API names a smoke selection (bench.smoke in apis/<api>/api.yaml) that an implementation here can run');
  return true;
});
