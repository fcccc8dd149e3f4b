// The tpcc database-alone limit: go-tpc (github.com/pingcap/go-tpc, built by make setup)
// running the same transactions with the same weights, clients and window (or request count)
// straight against the same database and data set, without HTTP or a framework. A process of
// its own (node baseline.ts <config.json> <out.json>, pinned by the runner like every
// baseline): it runs go-tpc for the warm-up, then again for the measured part, and turns
// go-tpc's summary into the baseline kit's output.
import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { clientArgs, type BaselineOutput, type LatencyUs } from '@fairbench/bench/plugin.ts';

export interface TpccBaselineConfig {
  readonly goTpc: string;
  readonly mysqlUrl: string;
  readonly threads: number;
  /** Percent per transaction, in go-tpc's order: new-order, payment, order-status, delivery, stock-level. */
  readonly weights: readonly number[];
  /** The payment matrix's fixed number of requests; otherwise the window. */
  readonly requests?: number;
  readonly warmupSeconds: number;
  readonly durationSeconds: number;
  readonly warehouses: number;
}

/** go-tpc's operation names → the API's transaction names (the k6 script's request types). */
export const GO_TPC_NAMES: Readonly<Record<string, string>> = {
  NEW_ORDER: 'new-order',
  PAYMENT: 'payment',
  ORDER_STATUS: 'order-status',
  DELIVERY: 'delivery',
  STOCK_LEVEL: 'stock-level',
};

export interface GoTpcLine {
  readonly op: string;
  readonly count: number;
  readonly avg: number;
  readonly p50: number;
  readonly p90: number;
  readonly p95: number;
  readonly p99: number;
  readonly max: number;
}

/** The "[Summary] OP - Takes(s): …, Count: …, …" lines of go-tpc's plain output. */
export function summaryLines(output: string): GoTpcLine[] {
  const lines: GoTpcLine[] = [];
  for (const m of output.matchAll(/^\[Summary\] (\w+)\s+- (.*)$/gm)) {
    const fields = Object.fromEntries(m[2]!.split(', ').map((kv) => kv.split(': ') as [string, string]));
    const n = (k: string) => Number(fields[k] ?? NaN);
    lines.push({
      op: m[1]!,
      count: n('Count'),
      avg: n('Avg(ms)'),
      p50: n('50th(ms)'),
      p90: n('90th(ms)'),
      p95: n('95th(ms)'),
      p99: n('99th(ms)'),
      max: n('Max(ms)'),
    });
  }
  return lines;
}

// go-tpc reports no minimum: 0 stands for "not reported" (apis/tpcc/README.md says so).
const latency = (l: GoTpcLine): LatencyUs => ({
  min: 0,
  mean: l.avg * 1000,
  median: l.p50 * 1000,
  p90: l.p90 * 1000,
  p95: l.p95 * 1000,
  p99: l.p99 * 1000,
  max: l.max * 1000,
});

/** The baseline kit's output from go-tpc's summary: per transaction, errors from its _ERR lines. */
export function baselineOutput(lines: readonly GoTpcLine[], measureFrom: number, measureUntil: number): BaselineOutput {
  const requestTypes: NonNullable<BaselineOutput['requestTypes']> = {};
  const errors: Record<string, number> = {};
  let requests = 0;
  let worst: GoTpcLine | undefined;
  let weighted = 0;
  for (const line of lines) {
    const failed = line.op.endsWith('_ERR');
    const name = GO_TPC_NAMES[failed ? line.op.slice(0, -'_ERR'.length) : line.op];
    if (name === undefined) continue;
    const t = (requestTypes[name] ??= { requests: 0, errors: 0, latencyUs: latency(line) });
    t.requests += line.count;
    requests += line.count;
    if (failed) {
      t.errors += line.count;
      errors['check'] = (errors['check'] ?? 0) + line.count;
    } else {
      t.latencyUs = latency(line);
      weighted += line.avg * line.count;
      if (worst === undefined || line.max > worst.max) worst = line;
    }
  }
  // Overall: the mean weighted by count; percentiles are not mergeable, so the busiest type's stand in.
  const busiest = lines.filter((l) => !l.op.endsWith('_ERR')).sort((a, b) => b.count - a.count)[0];
  const succeeded = requests - Object.values(errors).reduce((a, b) => a + b, 0);
  const overall: LatencyUs = busiest
    ? { ...latency(busiest), mean: succeeded > 0 ? (weighted / succeeded) * 1000 : 0, max: (worst?.max ?? 0) * 1000 }
    : latency({ op: '', count: 0, avg: 0, p50: 0, p90: 0, p95: 0, p99: 0, max: 0 });
  return { measureFrom, measureUntil, requests, errors, latencyUs: overall, requestTypes };
}

function goTpcArgs(c: TpccBaselineConfig, length: { seconds: number } | { count: number }): string[] {
  const url = new URL(c.mysqlUrl);
  return [
    'tpcc',
    'run',
    '-H',
    url.hostname,
    '-P',
    url.port || '3306',
    '-U',
    decodeURIComponent(url.username),
    '-p',
    decodeURIComponent(url.password),
    '-D',
    url.pathname.slice(1),
    '--warehouses',
    String(c.warehouses),
    '-T',
    String(c.threads),
    '--weight',
    c.weights.join(','),
    ...('seconds' in length ? ['--time', `${length.seconds}s`] : ['--count', String(length.count)]),
    '--interval',
    '3600s',
    '--output',
    'plain',
  ];
}

function run(goTpc: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(goTpc, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`go-tpc exited with ${code}:\n${out.slice(-2000)}`))));
  });
}

async function main(): Promise<void> {
  const { config, out } = await clientArgs<TpccBaselineConfig>();
  if (config.warmupSeconds > 0) await run(config.goTpc, goTpcArgs(config, { seconds: config.warmupSeconds }));
  const from = Date.now();
  const output = await run(config.goTpc, goTpcArgs(config, config.requests !== undefined ? { count: config.requests } : { seconds: config.durationSeconds }));
  const until = Date.now();
  const lines = summaryLines(output);
  if (lines.length === 0) throw new Error(`go-tpc printed no summary:\n${output.slice(-2000)}`);
  await writeFile(out, JSON.stringify(baselineOutput(lines, from, until)));
}

if (process.argv[1] === new URL(import.meta.url).pathname) await main();
