// make k6-operator API=<api> BASE_URL=<url> PARALLELISM=<n> and the other options of
// bench/src/plan/option-table.ts (make help lists them), as flags (--api …) or Make variables.
// Writes, for each benchmarked case the selection keeps (database-alone cases are not k6 loads),
// results/k6-operator/<api>/<runId>/<TestRun name>.yaml: a ConfigMap with the `k6 archive` of
// the API's script (the same script, scenario file and environment as make bench) and a
// k6-operator TestRun that runs it on PARALLELISM runners (bench/src/k6-operator/operator.ts), each
// checked against k6-operator's TestRun CRD first; and layout.json beside them: where each
// runner of each case writes its summary and samples on the results claim.
// Nothing here talks to a cluster: kubectl create is the user's.
import { mkdir, writeFile } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { runMain } from '@fairbench/harness/cli/main.ts';
import { CannotRun, missing, UsageError } from '@fairbench/harness/cli/usage.ts';
import { apiNames } from '@fairbench/harness/api/manifest.ts';
import { repoRoot, resultsDir } from '@fairbench/harness/paths.ts';
import { benchApi } from '../plan/apis.ts';
import { k6Version, type RunSettings } from '../load/k6.ts';
import {
  clusterManifest,
  K6_OPERATOR_VERSION,
  k6Image,
  manifestComment,
  manifestYaml,
  RESULTS_MOUNT,
  SAMPLES_FILE,
  SUMMARY_FILE,
  type ClusterOptions,
} from '../k6-operator/operator.ts';
import { clusterCases } from '../k6-operator/inputs.ts';
import { testRunValidator } from '../k6-operator/schema.ts';
import { defaultOf } from '../plan/option-table.ts';
import { chooseProfile, profileCases } from '../plan/profiles.ts';
import { readRequested } from '../plan/requested.ts';
import { isDatabaseAlone } from '../record/result-document.ts';
import { newRunId } from '../record/result.ts';
import { FilteredOut } from '../plan/select.ts';

await runMain('k6-operator', async () => {
  const requested = readRequested('k6-operator');
  const apis = await apiNames();
  const [apiName, ...more] = requested.apis ?? [];
  if (!apiName) throw missing('API', apis, 'make k6-operator API=forum BASE_URL=http://forum-express:3000 PARALLELISM=2');
  if (more.length > 0 || !apis.includes(apiName)) throw new UsageError(`API must be one of ${apis.join(', ')}, got '${requested.apis!.join(',')}'`);
  const baseUrl = urlArg(requested.baseUrl);
  if (requested.parallelism === undefined) throw new UsageError('give PARALLELISM, the number of k6 runners (e.g. PARALLELISM=2)');
  const parallelism = requested.parallelism;

  const { profile } = await chooseProfile(requested.profile, requested.quick === true);
  // A case's load as the local runner runs its first one after the implementation's start
  // (make bench restarts it for every case): the profile's first warm-up, unless WARMUP says otherwise.
  const settings: RunSettings = {
    warmupSeconds: requested.warmupSeconds ?? Math.max(profile.warmupSeconds, profile.firstWarmupSeconds),
    durationSeconds: requested.durationSeconds ?? profile.durationSeconds,
    seed: requested.seed ?? (defaultOf('seed') as number),
  };
  const { cases: filter, quick } = await profileCases(profile, apiName, requested.cases);
  const api = await benchApi(apiName);
  const select = async (cases: string | undefined) => {
    const plan = await api.module.plan(
      {
        quick: cases ? (quick ?? profile.quick) : profile.quick,
        ...(cases ? { cases } : {}),
        ...(requested.protocols ? { protocols: requested.protocols } : {}),
        ...(requested.models ? { models: requested.models } : {}),
      },
      api.scenarioFile,
    );
    const served = plan.cases.filter((c) => !isDatabaseAlone(c.protocol));
    if (served.length === 0)
      throw new FilteredOut(
        `no benchmarked case of ${relative(repoRoot, api.scenarioFile)} matches the filters (CASES, PROTOCOL, MODEL)${plan.cases.length > 0 ? ': only database-alone cases, which are no k6 load' : ''}`,
      );
    return served;
  };
  // As make bench: MODEL or PROTOCOL outside the profile's subset keeps every case they keep.
  const cases = await select(filter).catch((error: unknown) => {
    if (!(error instanceof FilteredOut) || !filter || requested.cases) throw error;
    console.log(`k6-operator: the ${profile.name} subset has no case that MODEL and PROTOCOL keep: every case they keep`);
    return select(undefined);
  });

  const version = await k6Version().catch(() => {
    throw new CannotRun("k6 is not installed: run make setup (its version pins the runners' image)");
  });
  const runId = newRunId(new Date());
  const options: ClusterOptions = {
    parallelism,
    namespace: nameArg('NAMESPACE', requested.namespace ?? (defaultOf('namespace') as string)),
    k6Version: version,
    resultsClaim: nameArg('RESULTS_CLAIM', requested.resultsClaim ?? (defaultOf('resultsClaim') as string)),
    resultsDir: `fairbench/${api.name}/${runId}`,
    separate: requested.separate ?? (defaultOf('separate') as boolean),
  };
  const outDir = requested.out ? resolve(requested.out) : join(resultsDir, 'k6-operator', api.name, runId);

  console.log(
    `k6-operator: ${api.name}, ${cases.length} case${cases.length > 1 ? 's' : ''} (profile ${profile.name}: ${settings.warmupSeconds} s warm-up + ${settings.durationSeconds} s measured), ${parallelism} runner${parallelism > 1 ? 's' : ''} of ${k6Image(version)}${options.separate ? ' on separate nodes' : ''}, namespace ${options.namespace}`,
  );
  const check = await testRunValidator();
  const inputs = await clusterCases({ api, cases, settings, baseUrl, runId });
  await mkdir(outDir, { recursive: true });
  const layout = [];
  for (const input of inputs) {
    const manifest = clusterManifest(input, options);
    const problems = check(manifest.testRun);
    if (problems.length > 0) throw new Error(`${input.case.id}: the TestRun does not pass k6-operator ${K6_OPERATOR_VERSION}'s CRD: ${problems.join('; ')}`);
    const file = join(outDir, `${manifest.testRun.metadata.name}.yaml`);
    await writeFile(file, manifestYaml(manifest, manifestComment(input, manifest, options)));
    layout.push({ case: input.case.id, testRun: manifest.testRun.metadata.name, manifest: relative(outDir, file), runners: manifest.runners });
    console.log(`k6-operator: ${input.case.id} → ${shown(file)}`);
  }
  const layoutFile = join(outDir, 'layout.json');
  await writeFile(
    layoutFile,
    `${JSON.stringify({ api: api.name, runId, namespace: options.namespace, claim: options.resultsClaim, resultsDir: options.resultsDir, parallelism, k6: version, cases: layout }, null, 2)}\n`,
  );
  console.log(`k6-operator: layout → ${shown(layoutFile)}`);
  console.log('');
  console.log(
    `Each file is one repetition of its case: kubectl create -f <file> (create, not apply: apply also copies the archive into an annotation, which holds at most 256 KiB); wait for \`kubectl -n ${options.namespace} get testruns\` to show it finished; kubectl delete -f <file> before the next.`,
  );
  console.log(
    `The implementation must answer at ${baseUrl} with the ${api.name} paper data set loaded${api.manifest.bench.writes ? ' (this API writes: seed it again between repetitions, as make bench resets it)' : ''}; the runners on nodes of their own.`,
  );
  console.log(
    `Results: the claim ${options.resultsClaim} (ReadWriteMany when the runners are on several nodes; mounted at ${RESULTS_MOUNT}), one directory per runner:`,
  );
  console.log(`  ${options.resultsDir}/<case id>/<TestRun name>-<i>/${SUMMARY_FILE}   handleSummary's JSON of runner i (k6's instance_id tag)`);
  console.log(`  ${options.resultsDir}/<case id>/<TestRun name>-<i>/${SAMPLES_FILE}    its samples (k6's CSV output)`);
  console.log(
    `  a pair per runner, i = 1..${parallelism}: what mergeK6Summaries (bench/src/load/k6-merge.ts) takes as its instances; layout.json lists every path.`,
  );
  return true;
});

/** A path inside the repository relative to it, else as it is. */
function shown(file: string): string {
  const inside = relative(repoRoot, file);
  return inside.startsWith('..') ? file : inside;
}

function urlArg(raw: string | undefined): string {
  if (!raw) throw new UsageError("give BASE_URL, the implementation's URL as the runners reach it (e.g. BASE_URL=http://forum-express.bench.svc:3000)");
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UsageError(`BASE_URL must be an http:// or https:// URL, got '${raw}'`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`BASE_URL must be an http:// or https:// URL, got '${raw}'`);
  // The scripts append paths to it (`${BASE_URL}/comment/1`).
  return raw.replace(/\/+$/, '');
}

function nameArg(what: string, name: string): string {
  if (!/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(name) || name.length > 63)
    throw new UsageError(`${what} must be a Kubernetes name (lowercase letters, digits and -, at most 63), got '${name}'`);
  return name;
}
