// The benchmark's cases as k6-operator TestRuns (grafana/k6-operator, kind TestRun,
// apiVersion k6.io/v1alpha1): for a Kubernetes cluster, the same scenario files and the same
// k6 scripts as the local runner, run by `parallelism` k6 runners on separate nodes.
// Pure: the case, its environment and the k6 archive in, the objects and their YAML out
// (the archive and the environment are made by k6-operator-inputs.ts, the files written by
// cli/k6-operator.ts, the objects checked against the CRD by k6-operator-schema.ts).
//
// What one TestRun is: one repetition of one case. The script travels as a `k6 archive` (the
// script, bench/k6/*.js it imports, its options and the -e environment) in a ConfigMap's
// binaryData; k6-operator mounts it at /test/ and every runner runs it with its share of the
// load (--execution-segment). k6-operator does not gather the runners' outputs: each runner
// writes its handleSummary JSON and its raw samples (k6's CSV output) into its own directory on
// a volume claim the user gives, <resultsDir>/<case id>/<runner>/{summary.json,samples.csv}
// (runnerResults()), where <runner> is the runner's Job name, <TestRun name>-<i> (i = 1..N,
// k6-operator's instance_id tag and the pod's hostname). The directory comes from the mount's
// subPathExpr and the pod's `job-name` label (the downward API), so the script's SUMMARY_PATH
// and the CSV path stay the same fixed paths in every runner.
import { createHash } from 'node:crypto';
import { stringify } from 'yaml';
import type { PlannedCase } from '../plan/api-module.ts';
import { GENERATOR_ENV, type RunSettings } from '../load/k6.ts';

/** The k6-operator release whose CRD bench/schemas/k6-operator/k6.io_testruns.yaml is (the oldest these manifests are checked against). */
export const K6_OPERATOR_VERSION = 'v1.6.0';
/** The ConfigMap key of the archive; k6-operator mounts the ConfigMap at /test/. */
export const ARCHIVE_KEY = 'archive.tar';
/** Where each runner's results directory is mounted. */
export const RESULTS_MOUNT = '/results';
/** The two files of each runner's directory: what mergeK6Summaries (bench/src/load/k6-merge.ts) takes as one instance. */
export const SUMMARY_FILE = 'summary.json';
export const SAMPLES_FILE = 'samples.csv';
/** What a ConfigMap's archive may take of its 1 MiB, leaving room for its metadata. */
const CONFIGMAP_MAX_BYTES = 1_000_000;
/** The runner's Job name (<TestRun>-<i>), from the pod's job-name label; names its results directory. */
const RUNNER_VAR = 'K6_RUNNER';
const RESULTS_VOLUME = 'fairbench-results';
const PART_OF = { 'app.kubernetes.io/part-of': 'fairbench' } as const;

export interface ClusterOptions {
  /** How many k6 runners share the load (k6-operator's parallelism): the case's VUs or rate split between them. */
  readonly parallelism: number;
  readonly namespace: string;
  /** The local runner's k6 (`k6 version`: v1.8.1): the runners run the official image of the same version, grafana/k6:1.8.1. */
  readonly k6Version: string;
  /** A PersistentVolumeClaim in the namespace the runners write their results to (ReadWriteMany when they are on several nodes). */
  readonly resultsClaim: string;
  /** The run's directory on the claim (relative, e.g. fairbench/forum/<runId>); each case's results are below it, under the case id. */
  readonly resultsDir: string;
  /** Every runner on its own node (k6-operator's `separate`: a required pod anti-affinity), like separate load machines. */
  readonly separate: boolean;
}

export interface ClusterCase {
  readonly api: string;
  readonly case: PlannedCase;
  readonly settings: RunSettings;
  /** The script's environment (k6.ts scriptEnv: BASE_URL, TIMELINE_SECONDS, the API's k6Env): in the archive (the manifest's comment lists it). */
  readonly env: Readonly<Record<string, string | number>>;
  /** `k6 archive` of the API's script with `env` (k6-operator-inputs.ts k6Archive). */
  readonly archive: Uint8Array;
  /** The local runner stops k6 after this many seconds (the API module's limitSeconds); here the script's own durations bound it. */
  readonly limitSeconds: number;
  /** What the manifest records about where it came from (the run id, the scenario file, the data set the environment assumes). */
  readonly provenance: Readonly<Record<string, string>>;
}

export interface ConfigMapObject {
  readonly apiVersion: 'v1';
  readonly kind: 'ConfigMap';
  readonly metadata: ObjectMeta;
  readonly binaryData: Record<string, string>;
}

export interface TestRunObject {
  readonly apiVersion: 'k6.io/v1alpha1';
  readonly kind: 'TestRun';
  readonly metadata: ObjectMeta;
  readonly spec: Record<string, unknown>;
}

interface ObjectMeta {
  readonly name: string;
  readonly namespace: string;
  readonly labels: Record<string, string>;
  readonly annotations?: Record<string, string>;
}

export interface ClusterManifest {
  readonly configMap: ConfigMapObject;
  readonly testRun: TestRunObject;
  /** Each runner's results directory on the claim, in instance order (1..N). */
  readonly runners: readonly RunnerResults[];
}

export interface RunnerResults {
  /** The runner's Job name: <TestRun name>-<i>. */
  readonly runner: string;
  /** k6-operator's instance_id tag of its samples. */
  readonly instance: number;
  /** Relative to the claim's root. */
  readonly summary: string;
  readonly samples: string;
}

/** grafana/k6:<version without the v>: the official image of the k6 the local runner uses. */
export function k6Image(k6Version: string): string {
  const version = /^v?(\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?)$/.exec(k6Version)?.[1];
  if (!version) throw new Error(`not a k6 release version: '${k6Version}'`);
  return `grafana/k6:${version}`;
}

/**
 * The TestRun's name: <api>-<case id with / as ->, short enough that k6-operator's names made
 * from it (the Jobs <name>-<i>, the Services <name>-service-<i>) are DNS labels (≤ 63
 * characters); a longer one is cut and ends in a hash of the case id, so names stay distinct.
 */
export function testRunName(api: string, caseId: string, parallelism: number): string {
  const full = `${api}-${caseId}`
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/-+/g, '-')
    .replace(/^-|-$/g, '');
  const max = 63 - '-service-'.length - String(parallelism).length;
  if (full.length <= max) return full;
  const hash = createHash('sha256').update(`${api}/${caseId}`).digest('hex').slice(0, 6);
  return `${full.slice(0, max - hash.length - 1).replace(/-$/, '')}-${hash}`;
}

/** The runners' results directories of a case (relative to the claim's root). */
export function runnerResults(name: string, caseDir: string, parallelism: number): RunnerResults[] {
  return Array.from({ length: parallelism }, (_, k) => {
    const runner = `${name}-${k + 1}`;
    return { runner, instance: k + 1, summary: `${caseDir}/${runner}/${SUMMARY_FILE}`, samples: `${caseDir}/${runner}/${SAMPLES_FILE}` };
  });
}

/** The ConfigMap holding the case's archive and the TestRun that runs it. */
export function clusterManifest(input: ClusterCase, opts: ClusterOptions): ClusterManifest {
  checkOptions(opts);
  const name = testRunName(input.api, input.case.id, opts.parallelism);
  const caseDir = `${opts.resultsDir}/${input.case.id}`;
  const image = k6Image(opts.k6Version);
  const archive = Buffer.from(input.archive).toString('base64');
  // A ConfigMap holds at most 1 MiB (etcd's object limit), metadata included.
  if (archive.length > CONFIGMAP_MAX_BYTES)
    throw new Error(
      `${input.case.id}: the k6 archive is ${archive.length} bytes in base64, more than a ConfigMap holds (${CONFIGMAP_MAX_BYTES}): it would need a volume claim`,
    );
  const labels = { ...PART_OF, 'fairbench/api': input.api };
  const configMap: ConfigMapObject = {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: `${name}-k6`, namespace: opts.namespace, labels: { ...labels, 'app.kubernetes.io/component': 'k6-archive' } },
    binaryData: { [ARCHIVE_KEY]: archive },
  };
  const generatorEnv = Object.entries(GENERATOR_ENV).map(([name, value]) => ({ name, value }));
  const testRun: TestRunObject = {
    apiVersion: 'k6.io/v1alpha1',
    kind: 'TestRun',
    metadata: {
      name,
      namespace: opts.namespace,
      labels,
      annotations: {
        'fairbench/case': input.case.id,
        'fairbench/settings': `warm-up ${input.settings.warmupSeconds} s, measured ${input.settings.durationSeconds} s, seed ${input.settings.seed}`,
        'fairbench/local-limit-seconds': String(input.limitSeconds),
        'fairbench/results': `${opts.resultsClaim}:${caseDir}/<runner>/{${SUMMARY_FILE},${SAMPLES_FILE}}`,
        ...Object.fromEntries(Object.entries(input.provenance).map(([k, v]) => [`fairbench/${k}`, v])),
      },
    },
    spec: {
      parallelism: opts.parallelism,
      separate: opts.separate,
      script: { configMap: { name: configMap.metadata.name, file: ARCHIVE_KEY } },
      // The same k6 flags in every runner (k6-operator adds the execution segment, --paused
      // for a common start, and the instance_id tag): the summary and the samples into the
      // runner's own directory, and no usage report (the env var as well, for every k6 it starts).
      // (`arguments`, not v1.6.0's `args`: no value has a space, and older operators take it too.)
      arguments: ['-e', `SUMMARY_PATH=${RESULTS_MOUNT}/${SUMMARY_FILE}`, '--out', `csv=${RESULTS_MOUNT}/${SAMPLES_FILE}`, '--no-usage-report'].join(' '),
      // The initializer (k6 archive and k6 inspect of the script, to check it) writes nothing: no results volume.
      initializer: { image, env: generatorEnv },
      runner: {
        image,
        env: [...generatorEnv, { name: RUNNER_VAR, valueFrom: { fieldRef: { fieldPath: "metadata.labels['job-name']" } } }],
        volumes: [{ name: RESULTS_VOLUME, persistentVolumeClaim: { claimName: opts.resultsClaim } }],
        // The kubelet creates <case dir>/<runner>/ on the claim (k6 creates no directories).
        volumeMounts: [{ name: RESULTS_VOLUME, mountPath: RESULTS_MOUNT, subPathExpr: `${caseDir}/$(${RUNNER_VAR})` }],
      },
    },
  };
  return { configMap, testRun, runners: runnerResults(name, caseDir, opts.parallelism) };
}

/** The file's opening comment: what it runs, how to run it, where the results go, the script's environment. */
export function manifestComment(input: ClusterCase, manifest: ClusterManifest, opts: ClusterOptions): string[] {
  const name = manifest.testRun.metadata.name;
  const show = (v: string | number) => (String(v).length > 160 ? `${String(v).slice(0, 160)}… (${String(v).length} characters)` : String(v));
  const first = manifest.runners[0]!;
  return [
    `fairbench ${input.api} ${input.case.id} on k6-operator: TestRun ${name}, ${opts.parallelism} runner${opts.parallelism > 1 ? 's' : ''}${opts.separate ? ' on separate nodes' : ''}, ${k6Image(opts.k6Version)}`,
    `(written by make k6-operator, bench/src/cli/k6-operator.ts; checked against k6-operator ${K6_OPERATOR_VERSION}'s TestRun CRD)`,
    '',
    'One TestRun is one repetition of the case (warm-up, then the measured window, as in make bench):',
    `  kubectl create -f <this file> (not apply: its last-applied annotation would hold the archive again); wait until \`kubectl -n ${opts.namespace} get testrun ${name}\` shows stage finished;`,
    '  copy the results off the claim; kubectl delete -f <this file> before running it again.',
    `The implementation must answer at ${String(input.env['BASE_URL'])}, on its own nodes, with the API's paper data set loaded.`,
    '',
    `Results, on the claim ${opts.resultsClaim}: one directory per runner (its Job's name, k6's instance_id tag i):`,
    `  ${first.summary.replace(first.runner, `${name}-<i>`)}   (handleSummary's JSON)`,
    `  ${first.samples.replace(first.runner, `${name}-<i>`)}    (every sample, k6's CSV output)`,
    '  each pair is one instance of mergeK6Summaries (bench/src/load/k6-merge.ts).',
    '',
    "The script's environment (in the archive):",
    ...Object.entries(input.env).map(([k, v]) => `  ${k}=${show(v)}`),
  ];
}

/** The manifest as one YAML file: a comment saying what it is, then the ConfigMap and the TestRun. */
export function manifestYaml(manifest: ClusterManifest, comment: readonly string[]): string {
  const head = comment.map((line) => `# ${line}`.trimEnd()).join('\n');
  const docs = [manifest.configMap, manifest.testRun].map((o) => stringify(o, { lineWidth: 0, aliasDuplicateObjects: false }));
  return `${head}\n---\n${docs.join('---\n')}`;
}

function checkOptions(opts: ClusterOptions): void {
  if (!Number.isInteger(opts.parallelism) || opts.parallelism < 1) throw new Error(`parallelism must be a whole number ≥ 1, got ${opts.parallelism}`);
  if (!/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(opts.namespace) || opts.namespace.length > 63)
    throw new Error(`not a Kubernetes namespace name: '${opts.namespace}'`);
  if (!/^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/.test(opts.resultsClaim) || opts.resultsClaim.length > 253)
    throw new Error(`not a PersistentVolumeClaim name: '${opts.resultsClaim}'`);
  // A subPathExpr is relative and stays inside the volume.
  if (!/^[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*$/.test(opts.resultsDir) || opts.resultsDir.split('/').some((p) => p === '..' || p === '.'))
    throw new Error(`the results directory must be a relative path without . or .. parts: '${opts.resultsDir}'`);
}
