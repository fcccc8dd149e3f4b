// The consumer test of one API: its k6 script, run for real against Pact's mock server, which
// answers only the interactions of the API's pact module. It fails when the script sends a
// request no interaction describes, when a k6 check fails on an answer the pact describes (the
// script reads something the pact does not promise), or when an interaction goes unused: so
// the pact cannot drift from the script. On success Pact writes the pact file.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PactV3, type V3Interaction } from '@pact-foundation/pact';
import { runCommand } from '@fairbench/harness/process.ts';
import { k6Binary } from './paths.ts';
import type { PactApi } from './apis.ts';
import type { ConsumerRun } from './module.ts';
import { consumerName, pactFile, pactFilesDir, providerName } from './paths.ts';

export interface RunCheck {
  readonly run: string;
  readonly requests: number;
  /** Failed requests by status key ('check' = the right status, a body k6 rejects). */
  readonly errors: Record<string, number>;
  readonly skipped: number;
}

export interface ConsumerOutcome {
  readonly api: string;
  readonly passed: boolean;
  readonly interactions: number;
  readonly runs: readonly RunCheck[];
  readonly problems: readonly string[];
  readonly file: string;
  readonly ms: number;
}

const PARALLEL_RUNS = 4;

async function inBatches<T, R>(items: readonly T[], size: number, f: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += size) out.push(...(await Promise.all(items.slice(i, i + size).map(f))));
  return out;
}

// A run is a second of load or less: ten times that is a hang.
const K6_TIMEOUT_MS = 60_000;

interface Summary {
  metrics: Record<string, { values: Record<string, number> } | undefined>;
}

async function runK6(api: PactApi, run: ConsumerRun, baseUrl: string, dir: string): Promise<RunCheck> {
  const summaryPath = join(dir, `${run.name.replace(/[^a-z0-9-]+/gi, '_')}.json`);
  const vars = { ...run.env, BASE_URL: baseUrl, SUMMARY_PATH: summaryPath };
  const args = ['run', '--quiet', '--no-color', '--address', '', ...Object.entries(vars).flatMap(([k, v]) => ['-e', `${k}=${v}`]), api.script];
  // 99: a threshold failed; the scripts' thresholds only ask for numbers.
  await runCommand(k6Binary, args, { env: { ...process.env, K6_NO_USAGE_REPORT: 'true' }, timeoutMs: K6_TIMEOUT_MS }).catch((e: Error) => {
    if (!/code 99|exit code 99/.test(e.message)) throw e;
  });
  const summary = JSON.parse(await readFile(summaryPath, 'utf8')) as Summary;
  // The thresholds make k6 report the measured phase's errors by status; the total covers every phase.
  const errors: Record<string, number> = {};
  for (const [key, metric] of Object.entries(summary.metrics)) {
    const status = /^errors\{phase:measure,status:([^,}]+)\}$/.exec(key)?.[1];
    if (status !== undefined && (metric?.values.count ?? 0) > 0) errors[status] = metric!.values.count!;
  }
  const total = summary.metrics.errors?.values.count ?? 0;
  const counted = Object.values(errors).reduce((a, b) => a + b, 0);
  if (total > counted) errors['outside the measured phase'] = total - counted;
  return {
    run: run.name,
    requests: summary.metrics.http_reqs?.values.count ?? 0,
    errors,
    skipped: summary.metrics.skipped?.values.count ?? 0,
  };
}

/** The runs and the interactions each mock server serves: the shared one, then each `only` group. */
function groups(api: PactApi): { runs: ConsumerRun[]; interactions: V3Interaction[] }[] {
  const claimed = new Set(api.pact.runs.flatMap((r) => r.only ?? []));
  const out = [{ runs: api.pact.runs.filter((r) => !r.only), interactions: api.pact.interactions.filter((i) => !claimed.has(i.uponReceiving)) }];
  for (const run of api.pact.runs.filter((r) => r.only)) {
    const unknown = run.only!.filter((d) => !api.pact.interactions.some((i) => i.uponReceiving === d));
    if (unknown.length > 0) throw new Error(`apis/${api.name} pact run '${run.name}': no interaction named ${unknown.join(', ')}`);
    out.push({ runs: [run], interactions: api.pact.interactions.filter((i) => run.only!.includes(i.uponReceiving)) });
  }
  return out.filter((g) => g.runs.length > 0 || g.interactions.length > 0);
}

export async function runConsumer(api: PactApi): Promise<ConsumerOutcome> {
  const started = performance.now();
  const file = pactFile(api.name);
  // Pact merges into an existing file: start from none, so a removed interaction is gone.
  await rm(file, { force: true });
  const dir = await mkdtemp(join(tmpdir(), `pact-${api.name}-`));
  const runs: RunCheck[] = [];
  const problems: string[] = [];
  try {
    // The groups' mock servers run side by side (each on its own port).
    await Promise.all(
      groups(api).map(async (group) => {
        const pact = new PactV3({ consumer: consumerName(api.name), provider: providerName(api.name), dir: pactFilesDir, logLevel: 'error' });
        for (const interaction of group.interactions) pact.addInteraction(interaction);
        try {
          await pact.executeTest(async (mock) => {
            // A few at a time: each is mostly k6 starting, or its one-second minimum of waiting.
            const checks = await inBatches(group.runs, PARALLEL_RUNS, (run) => runK6(api, run, mock.url, dir));
            for (const check of checks) {
              runs.push(check);
              if (check.requests === 0) problems.push(`${check.run}: k6 sent no request`);
              if (Object.keys(check.errors).length > 0)
                problems.push(
                  `${check.run}: k6 rejected answers the pact describes (${Object.entries(check.errors)
                    .map(([s, n]) => `${n}× ${s}`)
                    .join(', ')})`,
                );
              if (check.skipped > 0) problems.push(`${check.run}: ${check.skipped} requests skipped after a failed step`);
            }
          });
        } catch (error) {
          // Pact's own findings: requests no interaction describes, interactions never used.
          problems.push((error instanceof Error ? error.message : String(error)).trim());
        }
      }),
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  return {
    api: api.name,
    passed: problems.length === 0,
    interactions: api.pact.interactions.length,
    runs,
    problems,
    file,
    ms: Math.round(performance.now() - started),
  };
}
