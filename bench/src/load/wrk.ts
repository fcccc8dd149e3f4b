// wrk (from Debian) as a cross-check generator: a C load generator with a far smaller
// cost per request than k6, so where both reach the same rate neither was the limit.
// Used against the no-op target beside k6's ceiling (bench/src/execute/ceiling.ts).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runCommand, startProcess } from '@fairbench/harness/process.ts';
import { pinned } from './placement.ts';
import { TreeSampler } from './proc-sampler.ts';

const WRK = '/usr/bin/wrk';

export interface WrkResult {
  /** e.g. "wrk 4.1.0" */
  readonly name: string;
  readonly connections: number;
  readonly durationSeconds: number;
  readonly requests: number;
  /** Non-2xx/3xx responses and socket errors. */
  readonly errors: number;
  /** Successful responses per second. */
  readonly rate: number;
  /** wrk's CPU per request (µs), from /proc over its whole run. */
  readonly cpuPerRequestUs: number;
  readonly cpuPercentMean: number;
}

/** wrk's version, or undefined when it is not installed. */
export async function wrkVersion(): Promise<string | undefined> {
  // `wrk -v` prints its banner and exits with 1.
  const text = await runCommand(WRK, ['-v']).then(
    ({ stdout, stderr }) => stdout + stderr,
    (error: unknown) => String(error),
  );
  return /wrk (?:debian\/)?(\d[\w.+~-]*)/.exec(text)?.[1];
}

/** "N requests in S s" from wrk's report (its Requests/sec rounds). */
export function parseWrk(text: string): { requests: number; seconds: number } | undefined {
  const m = /(\d+) requests in ([\d.]+)(ms|s|m)\b/.exec(text);
  if (!m) return undefined;
  const seconds = Number(m[2]) * (m[3] === 'ms' ? 0.001 : m[3] === 'm' ? 60 : 1);
  return { requests: Number(m[1]), seconds };
}

/** Responses wrk counted as failed: not 2xx/3xx, and socket errors (connect, read, write, timeout). */
export function wrkFailures(text: string): number {
  const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(text)?.[1] ?? 0);
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(text);
  return non2xx + (socket ? socket.slice(1).reduce((a, n) => a + Number(n), 0) : 0);
}

/**
 * One thread, `connections` connections, GET `url` (or what the Lua `script` sends) for
 * `seconds` (whole: wrk takes no fraction), on `cores`. The rate counts successful responses.
 */
export async function runWrk(
  url: string,
  opts: { connections: number; seconds: number; cores: readonly number[] | null; workDir: string; script?: string },
): Promise<WrkResult> {
  const version = await wrkVersion();
  if (!version) throw new Error(`${WRK} is missing: run make setup`);
  const logFile = join(opts.workDir, `wrk-${Date.now()}.log`);
  const seconds = Math.max(1, Math.round(opts.seconds));
  const [command, args] = pinned(opts.cores, WRK, [
    '-t1',
    `-c${opts.connections}`,
    `-d${seconds}s`,
    '--timeout',
    '5s',
    ...(opts.script ? ['-s', opts.script] : []),
    url,
  ]);
  const child = startProcess({ name: 'wrk', command, args, logFile });
  const sampler = new TreeSampler({ wrk: child.pid }, 10);
  const from = Date.now();
  sampler.start();
  const timer = setTimeout(() => void child.stop(), (seconds + 15) * 1000);
  const code = await child.exited.finally(() => {
    clearTimeout(timer);
    sampler.stop();
  });
  const usage = sampler.usage('wrk', from, Date.now());
  const text = await readFile(logFile, 'utf8');
  const parsed = parseWrk(text);
  if (code !== 0 || !parsed || parsed.requests === 0)
    throw new Error(`wrk exited with ${code ?? 'a signal'}: ${text.trim().split('\n').slice(-3).join(' | ')}`);
  return {
    name: `wrk ${version}`,
    connections: opts.connections,
    durationSeconds: parsed.seconds,
    requests: parsed.requests,
    errors: wrkFailures(text),
    rate: Math.round((Math.max(0, parsed.requests - wrkFailures(text)) / parsed.seconds) * 10) / 10,
    cpuPerRequestUs: Math.round(((usage?.cpuSeconds ?? 0) / parsed.requests) * 1e7) / 10,
    cpuPercentMean: usage?.cpuPercentMean ?? 0,
  };
}
