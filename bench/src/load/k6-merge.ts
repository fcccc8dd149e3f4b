// One K6Summary from several k6 instances that shared a scenario through execution segments.
// Counters and rates add up; a trend's percentiles do not (averaging them is wrong), so every
// trend is recomputed from the instances' raw samples (`k6 run --out csv=<file>`) with k6's
// own algorithm (k6:metrics/sink.go TrendSink). measuredFromK6 then reads the merged summary
// like any other. What cannot be merged exactly throws.
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';
import type { K6Summary } from './k6.ts';

export interface K6Instance {
  readonly summary: K6Summary;
  /** Its samples: k6 run --out csv=<file> (.gz too). */
  readonly samplesFile: string;
}

type Values = Record<string, number>;
type Kind = 'counter' | 'gauge' | 'rate' | 'trend';
/** What k6's handleSummary data has beyond K6Summary's fields. */
interface RawMetric {
  readonly type?: string;
  readonly contains?: string;
  readonly values: Values;
}
interface RawSummary {
  readonly state?: { readonly testRunDurationMs?: number };
  readonly options?: { readonly summaryTrendStats?: readonly string[] };
}

/** k6's TrendSink.P: linear interpolation between the closest ranks of i = p·(n−1). */
export function k6Percentile(sorted: ArrayLike<number>, p: number): number {
  const n = sorted.length;
  if (n === 0) return 0;
  if (n === 1) return sorted[0]!;
  const i = p * (n - 1);
  const j = sorted[Math.floor(i)]!;
  const k = sorted[Math.ceil(i)]!;
  return j + (k - j) * (i - Math.floor(i));
}

/** The stats (summaryTrendStats names: min, max, avg, med, count, p(N)) of ascending values, as k6 reports them. */
export function k6TrendStats(sorted: Float64Array, stats: readonly string[]): Values {
  const n = sorted.length;
  let sum = 0;
  for (const v of sorted) sum += v;
  const out: Values = {};
  for (const stat of stats) {
    const p = /^p\((\d+(?:\.\d+)?)\)$/.exec(stat)?.[1];
    if (stat === 'min') out[stat] = n ? sorted[0]! : 0;
    else if (stat === 'max') out[stat] = n ? sorted[n - 1]! : 0;
    else if (stat === 'avg') out[stat] = n ? sum / n : 0;
    else if (stat === 'med') out[stat] = k6Percentile(sorted, 0.5);
    else if (stat === 'count') out[stat] = n;
    else if (p !== undefined) out[stat] = k6Percentile(sorted, Number(p) / 100);
    else throw new Error(`k6 merge: unknown trend stat '${stat}'`);
  }
  return out;
}

// ---- sub-metric keys -----------------------------------------------------------------

interface Key {
  readonly metric: string;
  readonly filter: readonly (readonly [string, string])[];
}

/** `name{k:v,...}` as k6 parses it (k6:metrics/metric.go AddSubmetric: split on ',', cut at ':', trim spaces and quotes). */
function parseKey(key: string): Key {
  const open = key.indexOf('{');
  if (open < 0) return { metric: key, filter: [] };
  if (!key.endsWith('}')) throw new Error(`k6 merge: malformed sub-metric '${key}'`);
  const filter = key
    .slice(open + 1, -1)
    .split(',')
    .filter((kv) => kv !== '')
    .map((kv): [string, string] => {
      const at = kv.indexOf(':');
      const trim = (s: string) => s.trim().replace(/^["']+|["']+$/g, '');
      const [k, v] = at < 0 ? [trim(kv), ''] : [trim(kv.slice(0, at)), trim(kv.slice(at + 1))];
      // The CSV writes an empty tag and an absent one alike: k6's "present and empty" cannot be told apart.
      if (v === '') throw new Error(`k6 merge: sub-metric '${key}' asks for an empty tag '${k}', which the CSV output cannot tell from an absent one`);
      return [k, v];
    });
  return { metric: key.slice(0, open), filter };
}

// ---- the CSV samples -----------------------------------------------------------------

/**
 * A file's samples of the wanted trend metrics, grouped by the values of the tags their keys
 * filter on (signature: those values joined by \0, '' for absent): memory is 8 bytes a
 * sample of a wanted metric, whatever other tags (urls) vary.
 */
type Buckets = Map<string, Map<string, number[]>>;

/** RFC 4180 fields of one record (Go's encoding/csv quotes fields with commas, quotes or newlines). */
function splitRecord(line: string): string[] {
  if (!line.includes('"')) return line.split(',');
  const fields: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quoted) {
      if (c !== '"') field += c;
      else if (line[i + 1] === '"') {
        field += '"';
        i++;
      } else quoted = false;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      fields.push(field);
      field = '';
    } else field += c;
  }
  fields.push(field);
  return fields;
}

async function readSamples(file: string, wanted: ReadonlyMap<string, readonly string[]>): Promise<Buckets> {
  const stream = createReadStream(file);
  const lines = createInterface({ input: file.endsWith('.gz') ? stream.pipe(createGunzip()) : stream, crlfDelay: Infinity });
  const buckets: Buckets = new Map();
  let header: string[] | undefined;
  const columns = new Map<string, number>();
  let valueAt = -1;
  let extraAt = -1;
  let pending = '';
  for await (const line of lines) {
    // A quoted field may hold a newline: a record is complete when its quotes balance.
    const record = pending === '' ? line : `${pending}\n${line}`;
    if (record.includes('"') && (record.split('"').length - 1) % 2 === 1) {
      pending = record;
      continue;
    }
    pending = '';
    if (!header) {
      header = splitRecord(record);
      valueAt = header.indexOf('metric_value');
      extraAt = header.indexOf('extra_tags');
      if (header[0] !== 'metric_name' || valueAt < 0 || extraAt < 0) throw new Error(`k6 merge: ${file} is not k6's CSV output (header: ${record})`);
      continue;
    }
    // Metric names are never quoted: the other metrics are skipped before splitting.
    const keys = wanted.get(record.slice(0, record.indexOf(',')));
    if (!keys) continue;
    const fields = splitRecord(record);
    if (fields.length !== header.length)
      throw new Error(`k6 merge: ${file}: a record of ${fields.length} fields under a header of ${header.length}: ${record}`);
    let extra: Map<string, string> | undefined;
    const tag = (k: string): string => {
      let column = columns.get(k);
      if (column === undefined) columns.set(k, (column = header!.indexOf(k)));
      if (column >= 0) return fields[column]!;
      // Custom tags: k=v&k2=v2, unescaped by k6 (output/csv SampleToRow).
      extra ??= new Map(
        (fields[extraAt] || undefined)?.split('&').map((kv) => {
          const at = kv.indexOf('=');
          if (at < 0) throw new Error(`k6 merge: ${file}: extra_tags '${fields[extraAt]}' is ambiguous (a tag value holds '&')`);
          return [kv.slice(0, at), kv.slice(at + 1)] as const;
        }) ?? [],
      );
      return extra.get(k) ?? '';
    };
    const signature = keys.map(tag).join('\0');
    const byTags = buckets.get(fields[0]!) ?? new Map<string, number[]>();
    buckets.set(fields[0]!, byTags);
    const values = byTags.get(signature) ?? [];
    byTags.set(signature, values);
    values.push(Number(fields[valueAt]));
  }
  if (pending !== '') throw new Error(`k6 merge: ${file} ends inside a quoted field`);
  return buckets;
}

/** The tag keys each trend metric's keys filter on, in a fixed order (the buckets' signature). */
function wantedTags(keys: Iterable<string>): Map<string, string[]> {
  const wanted = new Map<string, Set<string>>();
  for (const key of keys) {
    const { metric, filter } = parseKey(key);
    const tags = wanted.get(metric) ?? new Set();
    for (const [k] of filter) tags.add(k);
    wanted.set(metric, tags);
  }
  return new Map([...wanted].map(([m, tags]) => [m, [...tags].sort()]));
}

/** The samples of `key` (its metric, every filter tag equal) from the files' buckets, ascending. */
function samplesOf(key: string, wanted: ReadonlyMap<string, readonly string[]>, files: readonly Buckets[]): Float64Array {
  const { metric, filter } = parseKey(key);
  const order = wanted.get(metric) ?? [];
  const picked: number[][] = [];
  for (const buckets of files) {
    for (const [signature, values] of buckets.get(metric) ?? []) {
      const tags = signature.split('\0');
      if (filter.every(([k, v]) => tags[order.indexOf(k)] === v)) picked.push(values);
    }
  }
  const out = new Float64Array(picked.reduce((n, v) => n + v.length, 0));
  let at = 0;
  for (const values of picked) {
    out.set(values, at);
    at += values.length;
  }
  return out.sort();
}

// ---- summaries -----------------------------------------------------------------------

function kindOf(key: string, metric: RawMetric): Kind {
  const t = metric.type;
  if (t === 'counter' || t === 'gauge' || t === 'rate' || t === 'trend') return t;
  const v = metric.values;
  if ('avg' in v) return 'trend';
  if ('passes' in v) return 'rate';
  if ('value' in v) return 'gauge';
  if ('count' in v) return 'counter';
  throw new Error(`k6 merge: cannot tell the type of metric '${key}'`);
}

const trendKeys = (s: K6Summary) =>
  Object.entries(s.metrics)
    .filter(([k, m]) => m && kindOf(k, m) === 'trend')
    .map(([k]) => k);

/** CSV values have 6 decimals (Go's %f): a trend stat recomputed from them is within 5e-7 of k6's. */
function close(a: number, b: number): boolean {
  return Math.abs(a - b) <= 1e-6 + 1e-9 * Math.abs(b);
}

/** Each trend of `summary` recomputed from its own samples file, with the stats the summary lists. */
export async function k6Trends(summary: K6Summary, samplesFile: string): Promise<Record<string, Values>> {
  const keys = trendKeys(summary);
  const wanted = wantedTags(keys);
  const buckets = await readSamples(samplesFile, wanted);
  return Object.fromEntries(keys.map((k) => [k, k6TrendStats(samplesOf(k, wanted, [buckets]), Object.keys(summary.metrics[k]!.values))]));
}

/** Where recomputed trends and k6's summary differ beyond the CSV's rounding ('' when they agree). */
function disagreement(summary: K6Summary, trends: Record<string, Values>, file: string): string {
  const off: string[] = [];
  for (const [key, stats] of Object.entries(trends)) {
    for (const [stat, v] of Object.entries(stats)) {
      const k6 = summary.metrics[key]!.values[stat]!;
      if (stat === 'count' ? v !== k6 : !close(v, k6)) off.push(`${key} ${stat}: k6 ${k6}, samples ${v}`);
    }
  }
  return off.length
    ? `k6 merge: the samples in ${file} do not give its summary's trends (incomplete file, or another run's?): ${off.slice(0, 5).join('; ')}${off.length > 5 ? ` and ${off.length - 5} more` : ''}`
    : '';
}

/** Throws unless an instance's samples file reproduces every trend of its summary. */
export async function checkK6Samples(instance: K6Instance): Promise<void> {
  const off = disagreement(instance.summary, await k6Trends(instance.summary, instance.samplesFile), instance.samplesFile);
  if (off) throw new Error(off);
}

/** JSON with objects' keys sorted: k6 writes them in Go's map order, which is random. */
const canonical = (x: unknown) =>
  JSON.stringify(x, (_, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : 1))) : v,
  );

function sameInAll<T>(instances: readonly K6Instance[], what: string, get: (s: K6Summary & RawSummary) => T): T {
  const first = get(instances[0]!.summary);
  for (const i of instances)
    if (canonical(get(i.summary)) !== canonical(first))
      throw new Error(`k6 merge: the instances' ${what} differ (${JSON.stringify(first)} vs ${JSON.stringify(get(i.summary))})`);
  return first;
}

/**
 * One summary of the instances' shared run: counters and rates summed, trends recomputed
 * from all samples, gauges' extremes, the window from the first start to the last end.
 * A counter's rate is its count over the longest instance's test run (k6: count / test run
 * duration; the instances run side by side). Each instance's samples must first reproduce
 * its own summary: a truncated or mismatched file throws instead of merging wrongly.
 */
export async function mergeK6Summaries(instances: readonly K6Instance[]): Promise<K6Summary> {
  if (instances.length === 0) throw new Error('k6 merge: no instances');
  const apdex = sameInAll(instances, 'apdex', (s) => s.apdex);
  const overTimeSeconds = sameInAll(instances, 'overTimeSeconds', (s) => s.overTimeSeconds);
  const stress = sameInAll(instances, 'stress', (s) => s.stress);
  const options = sameInAll(instances, 'options', (s) => s.options);
  // setup() ran in every instance: all it returned but the window's start must agree.
  const setupRest = sameInAll(instances, 'setup_data (but measureFrom)', (s) => {
    if (!s.setup_data) return undefined;
    const { measureFrom: _, ...rest } = s.setup_data;
    return rest;
  });

  const kinds = new Map<string, { kind: Kind; type?: string; contains?: string }>();
  for (const { summary } of instances) {
    for (const [key, m] of Object.entries(summary.metrics)) {
      if (!m) continue;
      const raw: RawMetric = m;
      const kind = kindOf(key, raw);
      const seen = kinds.get(key);
      if (seen && seen.kind !== kind) throw new Error(`k6 merge: metric '${key}' is a ${seen.kind} in one instance, a ${kind} in another`);
      kinds.set(key, { kind, ...(raw.type !== undefined ? { type: raw.type } : {}), ...(raw.contains !== undefined ? { contains: raw.contains } : {}) });
    }
  }
  const of = (key: string) => instances.map((i) => i.summary.metrics[key]?.values).filter((v) => v !== undefined);
  const sum = (key: string, stat: string) => of(key).reduce((n, v) => n + (v[stat] ?? 0), 0);

  const keys = [...kinds].filter(([, k]) => k.kind === 'trend').map(([key]) => key);
  const wanted = wantedTags(keys);
  const samples = await Promise.all(instances.map((i) => readSamples(i.samplesFile, wanted)));
  instances.forEach((i, n) => {
    const own = trendKeys(i.summary).map((k) => [k, k6TrendStats(samplesOf(k, wanted, [samples[n]!]), Object.keys(i.summary.metrics[k]!.values))] as const);
    const off = disagreement(i.summary, Object.fromEntries(own), i.samplesFile);
    if (off) throw new Error(off);
  });

  const durations = instances.map((i) => (i.summary as RawSummary).state?.testRunDurationMs);
  const runMs = durations.every((d) => d !== undefined) ? Math.max(...durations) : undefined;
  const metrics: Record<string, RawMetric> = {};
  for (const [key, { kind, ...meta }] of kinds) {
    let values: Values;
    if (kind === 'trend') {
      values = k6TrendStats(
        samplesOf(key, wanted, samples),
        sameInAll(
          instances.filter((i) => i.summary.metrics[key]),
          `trend stats of ${key}`,
          (s) => Object.keys(s.metrics[key]!.values).sort(),
        ),
      );
    } else if (kind === 'counter') {
      if (runMs === undefined) throw new Error(`k6 merge: counter '${key}' needs every summary's state.testRunDurationMs for its rate`);
      const count = sum(key, 'count');
      values = { count, rate: runMs > 0 ? count / (runMs / 1000) : 0 };
    } else if (kind === 'rate') {
      const passes = sum(key, 'passes');
      const fails = sum(key, 'fails');
      values = { rate: passes + fails > 0 ? passes / (passes + fails) : 0, passes, fails };
    } else {
      values = {};
      for (const [stat, f] of [
        ['value', Math.max],
        ['min', Math.min],
        ['max', Math.max],
      ] as const) {
        const xs = of(key).flatMap((v) => (v[stat] === undefined ? [] : [v[stat]]));
        if (xs.length) values[stat] = f(...xs);
      }
    }
    metrics[key] = { ...meta, values };
  }

  const froms = instances.map((i) => i.summary.setup_data?.measureFrom);
  const untils = instances.map((i) => i.summary.measureUntil);
  const all = (xs: (number | undefined)[], what: string): xs is number[] => {
    if (xs.every((x) => x === undefined)) return false;
    if (xs.some((x) => x === undefined)) throw new Error(`k6 merge: only some instances have ${what}`);
    return true;
  };
  const merged: K6Summary & RawSummary = {
    metrics,
    ...(options !== undefined ? { options } : {}),
    ...(runMs !== undefined ? { state: { testRunDurationMs: runMs } } : {}),
    ...(all(froms, 'setup_data.measureFrom') ? { setup_data: { ...setupRest, measureFrom: Math.min(...froms) } } : setupRest ? { setup_data: setupRest } : {}),
    ...(all(untils, 'measureUntil') ? { measureUntil: Math.max(...untils) } : {}),
    ...(apdex !== undefined ? { apdex } : {}),
    ...(overTimeSeconds !== undefined ? { overTimeSeconds } : {}),
    ...(stress !== undefined ? { stress } : {}),
  };
  return merged;
}
