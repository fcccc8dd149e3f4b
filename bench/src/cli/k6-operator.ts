// make k6-operator API=<api> BASE_URL=<url> PARALLELISM=<n> [CASES=<glob or regex>] [PROFILE=quick|standard|paper | QUICK=1]
//   [DURATION] [WARMUP] [NAMESPACE=default] [RESULTS_CLAIM=fairbench-results] [SEPARATE=1]
// → node bench/src/cli/k6-operator.ts --api <api> --base-url <url> --parallelism <n> [--cases …] …
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
import { CannotRun, choiceArg, listArg, missing, numberArg, parseCli, UsageError } from '@fairbench/harness/cli/usage.ts';
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
import { chooseProfile, profileCases } from '../plan/profiles.ts';
import { isDatabaseAlone } from '../record/result-document.ts';
import { newRunId } from '../record/result.ts';
import { FilteredOut } from '../plan/select.ts';

await runMain('k6-operator', async () => {
  const { values } = parseCli({
    options: {
      api: { type: 'string' },
      'base-url': { type: 'string' },
      parallelism: { type: 'string' },
      cases: { type: 'string' },
      profile: { type: 'string' },
      quick: { type: 'boolean', default: false },
      duration: { type: 'string' },
      warmup: { type: 'string' },
      seed: { type: 'string' },
      protocol: { type: 'string' },
      model: { type: 'string' },
      namespace: { type: 'string' },
      'results-claim': { type: 'string' },
      separate: { type: 'string' },
      out: { type: 'string' },
    },
  });
  const apis = await apiNames();
  if (!values.api) throw missing('API', apis, 'make k6-operator API=forum BASE_URL=http://forum-express:3000 PARALLELISM=2');
  if (!apis.includes(values.api)) throw new UsageError(`API must be one of ${apis.join(', ')}, got '${values.api}'`);
  const baseUrl = urlArg(values['base-url']);
  if (values.parallelism === undefined || values.parallelism === '') throw new UsageError('give PARALLELISM, the number of k6 runners (e.g. PARALLELISM=2)');
  const parallelism = numberArg('PARALLELISM', values.parallelism, 1, 1, 1000);
  if (!Number.isInteger(parallelism)) throw new UsageError(`PARALLELISM must be a whole number, got '${values.parallelism}'`);

  const { profile } = await chooseProfile(values.profile || undefined, values.quick);
  // A case's load as the local runner runs its first one after the implementation's start
  // (make bench restarts it for every case): the profile's first warm-up, unless WARMUP says otherwise.
  const settings: RunSettings = {
    warmupSeconds: numberArg('WARMUP', values.warmup, Math.max(profile.warmupSeconds, profile.firstWarmupSeconds), 0),
    durationSeconds: numberArg('DURATION', values.duration, profile.durationSeconds, 1),
    seed: Math.round(numberArg('SEED', values.seed, 1, 0)),
  };
  const { cases: filter, quick } = await profileCases(profile, values.api, values.cases || undefined);
  const api = await benchApi(values.api);
  const select = async (cases: string | undefined) => {
    const plan = await api.module.plan(
      {
        quick: cases ? (quick ?? profile.quick) : profile.quick,
        ...(cases ? { cases } : {}),
        ...(listArg(values.protocol) ? { protocols: listArg(values.protocol)! } : {}),
        ...(listArg(values.model) ? { models: listArg(values.model)! } : {}),
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
    if (!(error instanceof FilteredOut) || !filter || values.cases) throw error;
    console.log(`k6-operator: the ${profile.name} subset has no case that MODEL and PROTOCOL keep: every case they keep`);
    return select(undefined);
  });

  const version = await k6Version().catch(() => {
    throw new CannotRun("k6 is not installed: run make setup (its version pins the runners' image)");
  });
  const runId = newRunId(new Date());
  const options: ClusterOptions = {
    parallelism,
    namespace: nameArg('NAMESPACE', values.namespace, 'default'),
    k6Version: version,
    resultsClaim: nameArg('RESULTS_CLAIM', values['results-claim'], 'fairbench-results'),
    resultsDir: `fairbench/${api.name}/${runId}`,
    separate: choiceArg('SEPARATE', values.separate, ['0', '1']) !== '0',
  };
  const outDir = values.out ? resolve(values.out) : join(resultsDir, 'k6-operator', api.name, runId);

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

function nameArg(what: string, raw: string | undefined, fallback: string): string {
  const name = raw || fallback;
  if (!/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(name) || name.length > 63)
    throw new UsageError(`${what} must be a Kubernetes name (lowercase letters, digits and -, at most 63), got '${name}'`);
  return name;
}
