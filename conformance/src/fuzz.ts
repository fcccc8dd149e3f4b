// Property-based fuzzing with Schemathesis: thousands of generated requests, valid
// and invalid, against a running implementation; every response must conform to
// spec/openapi.yaml (status, content type, headers, schema) and none may be a 5xx.
// A complement to the hand-written cases: it finds what nobody thought to write.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { cacheDir, repoRoot, resultsDir } from '@fairbench/harness/paths.ts';
import { startProcess } from '@fairbench/harness/process.ts';
import type { Target } from './launch-target.ts';

const SCHEMATHESIS = join(cacheDir, 'venv', 'bin', 'st');
const MAX_EXAMPLES = '100';
// make test's short form: 10 examples per operation (make fuzz runs them all). Measured on a fresh
// clone: 395 s of Schemathesis for 28 runs at 25; documents (~1 s an example) went from 54 s to 24 s.
const SHORT_MAX_EXAMPLES = 10;

interface FuzzRun {
  readonly name: string;
  readonly args: (baseUrl: string, target: Target) => string[];
  /** Default: MAX_EXAMPLES. */
  readonly maxExamples?: string;
}

/** The runs for one API: its REST operations, POST /graphql as HTTP, and the GraphQL schema. */
function runsFor(target: Target): FuzzRun[] {
  const tag = target.api.name;
  // An API's manifest may narrow Schemathesis where its defaults cannot finish on its bodies (it says why).
  const options = target.api.manifest.conformance.fuzz;
  const runs: FuzzRun[] = [
    {
      name: 'rest',
      args: (url) => [
        OPENAPI,
        '--url',
        url,
        '--include-tag',
        tag,
        '--exclude-path',
        '/graphql',
        '--checks',
        'all',
        ...(options?.excludeChecks ? ['--exclude-checks', options.excludeChecks.join(',')] : []),
        ...(options?.phases ? ['--phases', options.phases.join(',')] : []),
      ],
      ...(options?.maxExamples ? { maxExamples: String(options.maxExamples) } : {}),
    },
  ];
  if (target.api.manifest.graphql) {
    // A schema-valid body can still hold an invalid GraphQL document ({"query": "0"}), and
    // GraphQL types cannot state the argument ranges: a 4xx or BAD_USER_INPUT for "valid"
    // input is right there, so that one check (positive_data_acceptance) is off.
    const graphqlHttp = ['--checks', 'all', '--exclude-checks', 'positive_data_acceptance'];
    runs.push(
      { name: 'graphql-http', args: (url) => [OPENAPI, '--url', url, '--include-path', '/graphql', ...graphqlHttp] },
      { name: 'graphql', args: (url) => [GRAPHQL_SCHEMA, '--url', `${url}/graphql`, ...graphqlHttp] },
    );
  }
  return runs;
}

const OPENAPI = join(repoRoot, 'spec', 'openapi.yaml');
const GRAPHQL_SCHEMA = join(repoRoot, 'spec', 'schema.graphql');

async function workDir(): Promise<string> {
  const dir = join(cacheDir, 'schemathesis');
  await mkdir(dir, { recursive: true });
  return dir;
}

export interface FuzzOutcome {
  readonly run: string;
  readonly passed: boolean;
  /** Schemathesis's closing line, e.g. "No issues found in 4.99s" or "2 failures in 5.17s". */
  readonly summary: string;
  readonly logFile: string;
}

/** authHeader: "Name: value" on every generated request (the API's fuzz.auth login), if any; short: make test's short form. */
export async function fuzzTarget(target: Target, baseUrl: string, seed: string, authHeader?: string, short = false): Promise<FuzzOutcome[]> {
  const outcomes: FuzzOutcome[] = [];
  const auth = authHeader === undefined ? [] : ['--header', authHeader];
  for (const run of runsFor(target)) {
    const examples = run.maxExamples ?? MAX_EXAMPLES;
    const maxExamples = short ? String(Math.min(Number(examples), SHORT_MAX_EXAMPLES)) : examples;
    const logFile = join(resultsDir, 'fuzz', target.impl.manifest.name, `${target.api.name}-${run.name}.log`);
    const st = startProcess({
      name: `schemathesis-${run.name}`,
      command: SCHEMATHESIS,
      args: ['run', ...run.args(baseUrl, target), ...auth, '--seed', seed, '--max-examples', maxExamples, '--no-color'],
      cwd: await workDir(), // Schemathesis keeps its crash cache (.schemathesis/) in the current dir: not in the repo
      env: { ...process.env, SCHEMATHESIS_TELEMETRY: 'false' },
      logFile,
    });
    const code = await st.exited;
    const summary = (await st.tail(1)).replace(/=+/g, '').trim();
    outcomes.push({ run: run.name, passed: code === 0, summary, logFile });
  }
  return outcomes;
}
