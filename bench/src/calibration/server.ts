// The calibration server: a known CPU cost per request, so that the harness can be checked
// against a known difference (bench/src/calibration/ab.ts) and not only against none (A/A).
// No implementation, no database: GET / burns ITERATIONS × (1 + EXTRA_PERCENT/100) steps of
// a xorshift loop (deterministic work: its CPU cost does not depend on how the core is
// shared) and answers 200. GET /__series answers what it measured about itself every 20 ms:
// [Date.now(), its CPU µs (user + system), requests answered], so that the runner divides
// CPU by requests per slice at microsecond resolution instead of /proc's 10-ms ticks.
//
//   node bench/src/calibration/server.ts PORT ITERATIONS EXTRA_PERCENT
import { createServer } from 'node:http';

/** `n` steps of xorshift32; the result is returned so that the loop is not optimized away. */
export function burn(n: number, seed = 0x9e3779b9): number {
  let x = seed | 0;
  for (let i = 0; i < n; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
  }
  return x;
}

/** Steps per CPU µs of burn() on this machine: the median of `rounds` timed bursts of CPU time. */
export function stepsPerMicrosecond(rounds = 7, steps = 2_000_000): number {
  const rates: number[] = [];
  burn(steps);
  for (let r = 0; r < rounds; r++) {
    const before = process.cpuUsage();
    burn(steps);
    const used = process.cpuUsage(before);
    rates.push(steps / Math.max(1, used.user + used.system));
  }
  rates.sort((a, b) => a - b);
  return rates[rates.length >> 1]!;
}

export interface CalibrationServer {
  readonly port: number;
  close(): Promise<void>;
}

export function serveCalibration(port: number, iterations: number, extraPercent: number): Promise<CalibrationServer> {
  const steps = Math.round(iterations * (1 + extraPercent / 100));
  let requests = 0;
  const series: [number, number, number][] = [];
  const sample = () => {
    const u = process.cpuUsage();
    series.push([Date.now(), u.user + u.system, requests]);
    if (series.length > 60_000) series.splice(0, 10_000);
  };
  const timer = setInterval(sample, 20);
  const server = createServer((req, res) => {
    if (req.url === '/__series') {
      sample();
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(series));
      return;
    }
    const x = burn(steps, requests + 1);
    requests++;
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end(`ok ${x & 0xff}\n`);
  });
  server.keepAliveTimeout = 60_000;
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      sample();
      resolve({
        port,
        close: () =>
          new Promise<void>((done) => {
            clearInterval(timer);
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}

if (import.meta.main) {
  const [port, iterations, extra] = process.argv.slice(2).map(Number);
  if (!(port! > 0 && iterations! >= 0 && extra! >= 0)) {
    console.error('usage: server.ts PORT ITERATIONS EXTRA_PERCENT');
    process.exit(2);
  }
  await serveCalibration(port!, iterations!, extra!);
  console.log(`calibration server on 127.0.0.1:${port}: ${iterations} steps × ${1 + extra! / 100}`);
  process.on('SIGTERM', () => process.exit(0));
}
