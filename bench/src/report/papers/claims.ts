// A paper's claims as data (apis/<api>/bench/claims.yaml, bench/schemas/claims.schema.json):
// per claim the paper's words, the metric read from each repetition (or each request type
// of it), the pair, the cases, and the direction and size the paper reports. The report
// and make papers read them; nothing here names an API or an implementation.
import { join } from 'node:path';
import { loadApis, type Api } from '@fairbench/harness/api/manifest.ts';
import schema from '../../../schemas/claims.schema.json' with { type: 'json' };
import type { Repetition, RequestTypeResult } from '../../record/result-document.ts';
import { loadYamlIfPresent } from '../../yaml.ts';

/** [low, high] around 1: the ratio's interval must lie inside it for "equivalent". */
export type Margin = readonly [number, number];
/** The paper's pair[0] / pair[1] on the metric: a value or a range. */
export type PaperRatio = number | readonly [number, number];

/** What the paper reports: a direction with its size (or why it gives none), or that the two are equal within a margin. */
export type PaperExpectation =
  | { readonly better: string; readonly ratio: PaperRatio }
  | { readonly better: string; readonly directionOnly: string }
  | { readonly equal: Margin; readonly ratio?: PaperRatio };

export interface Claim {
  readonly id: string;
  readonly words: string;
  readonly where: string;
  readonly metric: Metric;
  readonly requestTypes?: readonly string[];
  readonly pair?: readonly [string, string];
  readonly cases: string;
  readonly expect: PaperExpectation;
  readonly paperFigure: string;
  readonly cannotCheck?: string;
  /** Why the papers profile leaves its cases out (a long run measures them). */
  readonly longRun?: string;
}

export interface ClaimsFile {
  readonly source: string;
  readonly run: { readonly pair: readonly [string, string]; readonly paperRuntimes: string };
  readonly deviations: readonly string[];
  readonly longRuns?: readonly { readonly what: string; readonly command: string; readonly why: string }[];
  /** How the load here differs in kind from the paper's (overload, request times far apart). */
  readonly regime?: readonly string[];
  readonly claims: readonly Claim[];
  /** The paper's other quantitative findings, each with why it is not a claim here. */
  readonly notChecked?: readonly NotChecked[];
}

export interface NotChecked {
  readonly finding: string;
  readonly where: string;
  readonly reason: string;
}

/** One API's claims with its paper (the API manifest's title and authors). */
export interface PaperClaims {
  readonly api: string;
  readonly paper: { readonly title: string; readonly authors: string };
  readonly file: string;
  readonly claims: ClaimsFile;
}

/** Where a figure is read: a whole repetition, or one request type of it (the fields they share). */
type Figures = Pick<Repetition, 'latencyMs' | 'requests' | 'apdex'> & {
  throughput?: number;
  errorCount: number;
  whole: Repetition;
};

const wholeOf = (r: Repetition): Figures => ({ ...r, errorCount: Object.values(r.errors).reduce((a, n) => a + n, 0), whole: r });
const typeOf = (r: Repetition, t: RequestTypeResult): Figures => ({ ...t, errorCount: t.errors, whole: r });

/** What a claim's metric is and how it is read; `perRepetition`: the process's, the same for every request type of the repetition. */
export const METRICS = {
  throughput: { label: 'throughput', unit: 'req/s', higherIsBetter: true, of: (f: Figures) => f.throughput },
  'per-minute': {
    label: 'rate per minute',
    unit: '/min',
    higherIsBetter: true,
    of: (f: Figures) => (f.throughput === undefined ? undefined : f.throughput * 60),
  },
  samples: { label: 'requests completed', unit: 'requests', higherIsBetter: true, of: (f: Figures) => f.requests },
  'latency-mean': { label: 'mean latency', unit: 'ms', higherIsBetter: false, of: (f: Figures) => f.latencyMs.mean },
  'latency-median': { label: 'median latency', unit: 'ms', higherIsBetter: false, of: (f: Figures) => f.latencyMs.median },
  'latency-p95': { label: 'p95 latency', unit: 'ms', higherIsBetter: false, of: (f: Figures) => f.latencyMs.p95 },
  'latency-sd': { label: 'latency SD', unit: 'ms', higherIsBetter: false, of: (f: Figures) => f.latencyMs.sd },
  // The server's CPU and memory are the process tree's, not a request type's.
  'cpu-per-request': { label: 'server CPU per request', unit: 'µs', higherIsBetter: false, of: (f: Figures) => f.whole.cpuPerRequestUs?.server },
  'peak-rss': {
    label: 'server peak RSS',
    unit: 'MiB',
    higherIsBetter: false,
    of: (f: Figures) => (f.whole.server ? f.whole.server.rssBytesPeak / 2 ** 20 : undefined),
  },
  'error-rate': { label: 'error rate', unit: '%', higherIsBetter: false, of: (f: Figures) => (f.requests ? (100 * f.errorCount) / f.requests : undefined) },
  apdex: { label: 'Apdex', unit: '', higherIsBetter: true, of: (f: Figures) => f.apdex?.score },
  // A repetition that survived to the cap has none: only the failing ones are compared.
  'time-to-failure': { label: 'time to failure', unit: 's', higherIsBetter: true, of: (f: Figures) => f.whole.stress?.failedAfterSeconds },
} as const satisfies Record<string, { label: string; unit: string; higherIsBetter: boolean; of: (f: Figures) => number | undefined }>;
export type Metric = keyof typeof METRICS;

/** The metric of one repetition, whole or of one request type; undefined where it was not recorded. */
export function metricOf(metric: Metric, r: Repetition, requestType?: string): number | undefined {
  if (requestType === undefined) return METRICS[metric].of(wholeOf(r));
  const t = r.requestTypes?.[requestType];
  return t ? METRICS[metric].of(typeOf(r, t)) : undefined;
}

/** The paper's ratio as [low, high] (a single figure twice); undefined where it gives none. */
export function paperRange(expect: PaperExpectation): readonly [number, number] | undefined {
  const ratio = 'ratio' in expect ? expect.ratio : undefined;
  if (ratio === undefined) return undefined;
  return typeof ratio === 'number' ? [ratio, ratio] : [Math.min(...ratio), Math.max(...ratio)];
}

/**
 * What a claim measures — metric, cases, request types, pair — as one string: a compact
 * result's figures belong to a claim only while this is unchanged (a claim re-encoded with
 * another metric shows "not yet run", never the old metric's figures).
 */
export const claimDefinition = (file: ClaimsFile, claim: Claim): string =>
  JSON.stringify({ metric: claim.metric, cases: claim.cases, requestTypes: claim.requestTypes ?? null, pair: pairOf(file, claim) });

/** A claim make papers measures: neither impossible here nor left to a long run. */
export const measuredByPapers = (claim: Claim): boolean => !claim.cannotCheck && !claim.longRun;

/** The claim's pair: its own, or its paper's run's. */
export const pairOf = (file: ClaimsFile, claim: Claim): readonly [string, string] => claim.pair ?? file.run.pair;

export const CLAIMS_FILE = join('bench', 'claims.yaml');

/** An API's claims file, checked against the schema and its own consistency; null when it has none. */
export async function loadClaims(api: Api): Promise<PaperClaims | null> {
  const file = join(api.dir, CLAIMS_FILE);
  const data = await loadYamlIfPresent<ClaimsFile>(file, schema);
  if (data === null) return null;
  const ids = new Set<string>();
  for (const c of data.claims) {
    if (ids.has(c.id)) throw new Error(`${file}: claim ${c.id} twice`);
    ids.add(c.id);
    const pair = pairOf(data, c);
    if (pair[0] === pair[1]) throw new Error(`${file}: claim ${c.id}: its pair is one implementation twice`);
    if ('better' in c.expect && !pair.includes(c.expect.better))
      throw new Error(`${file}: claim ${c.id}: better: ${c.expect.better} is not of its pair ${pair.join(', ')}`);
    if ('equal' in c.expect && !(c.expect.equal[0] < 1 && c.expect.equal[1] > 1)) throw new Error(`${file}: claim ${c.id}: the margin must lie around 1`);
    const range = 'better' in c.expect ? paperRange(c.expect) : undefined;
    if (range && 'better' in c.expect) {
      // The paper's ratio must say what `better` says: pair[0] better on a higher-is-better metric is a ratio above 1.
      const above = (c.expect.better === pair[0]) === METRICS[c.metric].higherIsBetter;
      if (!(above ? range[0] > 1 : range[1] < 1))
        throw new Error(`${file}: claim ${c.id}: ratio ${range.join('–')} says the other of ${pair.join(' / ')} is better than better: ${c.expect.better}`);
    }
  }
  const findings = new Set<string>();
  for (const n of data.notChecked ?? []) {
    if (findings.has(n.finding)) throw new Error(`${file}: notChecked lists "${n.finding.slice(0, 40)}…" twice`);
    findings.add(n.finding);
  }
  return { api: api.manifest.name, paper: api.manifest.paper, file, claims: data };
}

/** Every API's claims, in the APIs' order. */
export async function loadAllClaims(): Promise<PaperClaims[]> {
  return (await Promise.all((await loadApis()).map(loadClaims))).flatMap((c) => (c ? [c] : []));
}
