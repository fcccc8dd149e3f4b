// The small k6 library every API's script (apis/<api>/bench/k6.js) shares: the measured-window
// protocol (setup() opens the window after the warm-up, handleSummary() closes it and writes
// the summary where the runner reads it), errors by status and request type, the server's
// own time from the Server-Timing header, and the thresholds that make k6 put the measured
// window's sub-metrics (phase=measure, per name) into the summary that bench/src/k6.ts reads.
// The thresholds always pass: they only ask for the numbers. Each script keeps only its
// API's requests and checks.
import { sleep } from 'k6';
import exec from 'k6/execution';
import { Counter, Rate, Trend } from 'k6/metrics';

export const STATUS_KEYS = ['0', '400', '401', '403', '404', '405', '408', '409', '413', '415', '429', '500', '502', '503', '504', '1xx', '2xx', '3xx', '4xx', '5xx', 'check'];
const statusKey = (status) => (STATUS_KEYS.includes(String(status)) ? String(status) : `${Math.floor(status / 100)}xx`);

// Failed requests ('0' = no response, 'check' = the expected status with a wrong body).
const errors = new Counter('errors');
// Requests a flow did not send because an earlier step failed (that one counts as the error).
const skips = new Counter('skipped');
// The implementation's app;dur= (ms): framework entry to response written.
const serverMs = new Trend('server_ms', true);
// The sums that give each request's latency a standard deviation (Bombardier's "Stdev", which
// the papers report): k6's Trend has no such statistic, and two Counters cost less than a Trend.
const latencySum = new Counter('latency_sum_ms');
const latencySquares = new Counter('latency_sq_ms2');
// Each request, failed or not: the windows' error rates (bench/k6/windows.js) are its sub-metrics.
const failedRate = new Rate('failed');
// Apdex from counts (APDEX_T_MS, APDEX_F_MS set): satisfied = ok within T, tolerating = ok
// within F; the rest of the requests (slower, or failed) are frustrated.
const APDEX = __ENV.APDEX_T_MS ? { tMs: Number(__ENV.APDEX_T_MS), fMs: Number(__ENV.APDEX_F_MS) } : null;
const apdexSatisfied = new Counter('apdex_satisfied');
const apdexTolerating = new Counter('apdex_tolerating');
// A stress test's recovery check (teardown): ms from the load's end to the first normal answer.
const recoveryMs = new Trend('recovery_ms', true);
const recovered = new Rate('recovered');
// When the load ended, if a teardown ran after it (the recovery check): the measured window ends there, not at handleSummary.
const loadEnd = new Trend('load_end_epoch_ms');

// Latency second by second from the start of the load (its scenario's start: setup() excluded),
// the warm-up included, for the first TIMELINE_SECONDS seconds (set by the runner; 0 or unset:
// none): a JIT's warm-up shows in the seconds the measured window leaves out. A request counts
// in the second it ended. One sub-metric per second (tag `sec`).
const TIMELINE_SECONDS = Number(__ENV.TIMELINE_SECONDS || 0);
const timeline = new Trend('timeline_ms', true);

export function env(script, name, fallback) {
  const value = __ENV[name] ?? fallback;
  if (value === undefined || value === '') throw new Error(`${script}: ${name} is not set`);
  return value;
}

/** setup()'s measured window: it opens `warmupSeconds` after the scenarios start (right after setup). */
export function windowStart(warmupSeconds) {
  return Date.now() + warmupSeconds * 1000;
}

/** Every script's handleSummary: the JSON summary, stamped with the window's end (and the Apdex thresholds), at SUMMARY_PATH. */
export function writeSummary(data, extra = {}) {
  data.measureUntil = Date.now();
  if (APDEX) data.apdex = APDEX;
  Object.assign(data, extra);
  return { [env('summary', 'SUMMARY_PATH')]: JSON.stringify(data) };
}

/** Records one response: its server time, and an error unless it had `status` and `ok(body)`. */
export function record(res, name, phase, status, ok) {
  const timing = /app;dur=([0-9.]+)/.exec(res.headers['Server-Timing'] ?? '');
  const ms = res.timings.duration;
  // (Not in setup(), __VU 0: no scenario has started; its requests are no part of the load.)
  if (TIMELINE_SECONDS > 0 && __VU > 0) {
    const second = Math.floor((Date.now() - exec.scenario.startTime) / 1000);
    if (second < TIMELINE_SECONDS) timeline.add(ms, { sec: String(second) });
  }
  latencySum.add(ms, { name, phase });
  latencySquares.add(ms * ms, { name, phase });
  if (timing) serverMs.add(Number(timing[1]), { name, phase });
  let failure;
  if (res.status !== status) failure = statusKey(res.status);
  else if (ok && !ok(res.body)) failure = 'check';
  if (failure) errors.add(1, { name, phase, status: failure });
  failedRate.add(failure !== undefined, { name, phase });
  if (APDEX && failure === undefined && ms <= APDEX.fMs) (ms <= APDEX.tMs ? apdexSatisfied : apdexTolerating).add(1, { name, phase });
  return failure === undefined;
}

/** A request a flow could not send because an earlier step failed: counted, not timed. */
export function skipped(name, phase) {
  skips.add(1, { name, phase });
}

/** Thresholds naming every sub-metric the runner reads, for the request types `names`. */
export function reported(names) {
  const t = {
    'http_reqs{phase:measure}': ['count>=0'],
    'http_req_duration{phase:measure}': ['max>=0'],
    'server_ms{phase:measure}': ['max>=0'],
    'latency_sum_ms{phase:measure}': ['count>=0'],
    'latency_sq_ms2{phase:measure}': ['count>=0'],
    'dropped_iterations': ['count>=0'],
    'skipped{phase:measure}': ['count>=0'],
  };
  if (APDEX) for (const tag of ['', ...names.map((n) => `,name:${n}`)]) {
    t[`apdex_satisfied{phase:measure${tag}}`] = ['count>=0'];
    t[`apdex_tolerating{phase:measure${tag}}`] = ['count>=0'];
  }
  for (const key of STATUS_KEYS) t[`errors{phase:measure,status:${key}}`] = ['count>=0'];
  for (let second = 0; second < TIMELINE_SECONDS; second++) t[`timeline_ms{sec:${second}}`] = ['max>=0'];
  for (const name of names) {
    t[`http_reqs{phase:measure,name:${name}}`] = ['count>=0'];
    t[`http_req_duration{phase:measure,name:${name}}`] = ['max>=0'];
    t[`server_ms{phase:measure,name:${name}}`] = ['max>=0'];
    t[`latency_sum_ms{phase:measure,name:${name}}`] = ['count>=0'];
    t[`latency_sq_ms2{phase:measure,name:${name}}`] = ['count>=0'];
    t[`errors{phase:measure,name:${name}}`] = ['count>=0'];
  }
  return t;
}

// p(25) and p(75): the box plots' boxes.
export const TREND_STATS = ['min', 'p(25)', 'avg', 'med', 'p(75)', 'p(90)', 'p(95)', 'p(99)', 'max', 'count'];

/**
 * A stress test's recovery check, for teardown (after the load stopped): `probe()` every
 * `everyMs` until it answers normally (true) or `withinSeconds` passed. Recorded as
 * recovery_ms (when it answered) and recovered (whether it did).
 */
export function recover(probe, withinSeconds, everyMs) {
  const start = Date.now();
  loadEnd.add(start);
  for (;;) {
    if (probe()) {
      recoveryMs.add(Date.now() - start);
      recovered.add(true);
      return true;
    }
    if (Date.now() - start + everyMs > withinSeconds * 1000) {
      recovered.add(false);
      return false;
    }
    sleep(everyMs / 1000);
  }
}

/** Counts occurrences without parsing JSON (cheaper for k6 than the server's own work). */
export function count(body, needle) {
  let n = 0;
  for (let i = body.indexOf(needle); i >= 0; i = body.indexOf(needle, i + needle.length)) n++;
  return n;
}
