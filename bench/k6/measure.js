// The small k6 library every API's script (apis/<api>/bench/k6.js) shares: the measured-window
// protocol (setup() opens the window after the warm-up, handleSummary() closes it and writes
// the summary where the runner reads it), errors by status and request type, the server's
// own time from the Server-Timing header, and the thresholds that make k6 put the measured
// window's sub-metrics (phase=measure, per name) into the summary that bench/src/load/k6.ts reads.
// The thresholds always pass: they only ask for the numbers. Each script keeps only its
// API's requests and checks.
import { sleep } from 'k6';
import exec from 'k6/execution';
import { Counter, Rate, Trend } from 'k6/metrics';

export const STATUS_KEYS = [
  '0',
  '400',
  '401',
  '403',
  '404',
  '405',
  '408',
  '409',
  '413',
  '415',
  '429',
  '500',
  '502',
  '503',
  '504',
  '1xx',
  '2xx',
  '3xx',
  '4xx',
  '5xx',
  'check',
];
const statusKey = (status) => (STATUS_KEYS.includes(String(status)) ? String(status) : `${Math.floor(status / 100)}xx`);

// Failed requests ('0' = no response, 'check' = the expected status with a wrong body).
const errors = new Counter('errors');
// Requests a flow did not send because an earlier step failed (that one counts as the error).
const skips = new Counter('skipped');
// The implementation's app;dur= (ms): framework entry to response written. Like the sums
// below, over the requests whose body is checked in full (fullCheck: every one in the
// warm-up, 1 in CHECK_EVERY in the window): a Trend sample per request is a large share of k6's own cost.
const serverMs = new Trend('server_ms', true);
// The sums that give each request's latency a standard deviation (Bombardier's "Stdev", which
// the papers report): k6's Trend has no such statistic, and Counters cost less than a Trend.
// latency_n counts the requests they cover (the declared sample): √(Σx²/n − (Σx/n)²).
const latencySum = new Counter('latency_sum_ms');
const latencySquares = new Counter('latency_sq_ms2');
const latencyN = new Counter('latency_n');
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
// none): a JIT's warm-up shows in the seconds the measured window leaves out. The second is a
// VU tag (`sec`) set by tag() when it changes, so a request counts in the second it was sent
// (its params() or, for a script passing its own tags, its VU's previous record()), and
// http_req_duration{sec:N}, k6's own sample, is the timeline: no metric sample of its own per
// request. After the last second: sec=after.
const TIMELINE_SECONDS = Number(__ENV.TIMELINE_SECONDS || 0);

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
  if (SLICE_ORDER) data.slices = { order: SLICE_ORDER, seconds: SLICE_MS / 1000, guardSeconds: GUARD_MS / 1000 };
  Object.assign(data, extra);
  return { [env('summary', 'SUMMARY_PATH')]: JSON.stringify(data) };
}

// The system tags k6 puts on every sample: only the status (k6's own http_req_failed) and the
// scenario. Not the url (a new tag set per distinct URL: the id is in it), method, proto,
// group, check, error, tls_version, expected_response…: the result reads none of them, and
// each costs k6 CPU on every sample of every request. The tags the result reads (name,
// phase, status of errors, sec, tw…) are the scripts' own and are kept whatever this says.
export const SYSTEM_TAGS = ['status', 'scenario'];

// What the scripts check of each answer, at a declared cost (bench/docs/k6.md, "What k6 checks"):
// every answer's status; the whole body of every answer in the warm-up (and in setup and
// outside a bench run: CHECK_EVERY unset = 1, as make pact runs the scripts), and of 1 in
// CHECK_EVERY of each VU's answers in the measured window — deterministic: a VU's measured
// requests number i = 0, 1, 2, … and the sample is i ≡ (CHECK_EVERY − VU mod CHECK_EVERY) mod
// CHECK_EVERY, so the VUs' samples interleave. The others are read with responseType 'none'
// (k6 then allocates no string for the body) and checked by status and length: their
// Content-Length must lie within [½ × the shortest, 3 × the longest] of the same request
// type's fully checked answers in this VU (characters of the checked bodies: UTF-8 is 1-3
// bytes each); an answer without Content-Length is read as bytes ('binary') to be measured.
// The runner sets CHECK_EVERY and records it in the result (generator.checkEvery).
export const CHECK_EVERY = Math.max(1, Math.floor(Number(__ENV.CHECK_EVERY || 1)));
let measuredSeq = 0;
// Per request type: the checked bodies' lengths (min, max) and whether answers carry Content-Length.
const shapes = {};

/** Whether this request's body is read and checked in full (see above); call once per request, before sending it. */
export function fullCheck(phase) {
  // A switched slice's guard (below) is measured load, not warm-up: sampled like the window.
  if ((phase !== 'measure' && phase !== 'guard') || CHECK_EVERY === 1) return true;
  return (measuredSeq++ + __VU) % CHECK_EVERY === 0;
}

/** The responseType for a request of type `name`: 'text' when its body is checked in full. */
export function bodyType(name, full) {
  if (full) return 'text';
  const shape = shapes[name];
  return shape !== undefined && !shape.sized ? 'binary' : 'none';
}

// Switched slices (bench/docs/precision.md): the measured repetitions of a comparison in
// one load, each SLICE seconds of the window going to one implementation, so that a pair's two
// slices are adjacent and no slice pays a k6 start. A script that supports them sends each
// request to BASES[target(…).side] (every script: BASES[0] = BASE_URL without slices).
//   SLICE_BASES   the implementations' base URLs, space-separated
//   SLICE_ORDER   one digit per slice: the index in SLICE_BASES it goes to
//   SLICE         seconds per slice
//   SLICE_GUARD   seconds at each slice's start whose requests are left out (phase 'guard'):
//                 the switch's transient (answers still in flight from the other side)
// Each measured request is also tagged slice=s1, s2, … (a VU tag, set when it changes); the
// warm-up alternates between the bases every half second so that every connection is open.
export const BASES = __ENV.SLICE_BASES ? __ENV.SLICE_BASES.split(' ') : [__ENV.BASE_URL];
const SLICE_ORDER = __ENV.SLICE_BASES ? env('measure.js', 'SLICE_ORDER') : '';
const SLICE_MS = SLICE_ORDER ? Number(env('measure.js', 'SLICE')) * 1000 : 0;
const GUARD_MS = SLICE_ORDER ? Number(env('measure.js', 'SLICE_GUARD', '0')) * 1000 : 0;
const SLICE_NAMES = Array.from({ length: SLICE_ORDER.length }, (_, i) => `s${i + 1}`);
// target()'s answer: one object per VU, rewritten on each call (no allocation per request).
const aim = { side: 0, phase: 'warmup' };

/** Where the VU's next request goes (aim.side: an index in BASES) and its phase, from the measured window's start. */
export function target(measureFrom) {
  const now = Date.now();
  if (now < measureFrom) {
    aim.phase = 'warmup';
    aim.side = SLICE_ORDER ? Math.floor(now / 500) % BASES.length : 0;
    return aim;
  }
  if (!SLICE_ORDER) {
    aim.phase = 'measure';
    return aim;
  }
  const into = now - measureFrom;
  const i = Math.min(SLICE_ORDER.length - 1, Math.floor(into / SLICE_MS));
  aim.side = Number(SLICE_ORDER[i]);
  aim.phase = into - i * SLICE_MS < GUARD_MS ? 'guard' : 'measure';
  vuTags ??= exec.vu.tags;
  if (vuTags.slice !== SLICE_NAMES[i]) vuTags.slice = SLICE_NAMES[i];
  return aim;
}

// A request's tags name and phase are the VU's (exec.vu.tags), set when they change: k6 then
// tags every sample of the request and of record()'s metrics with them without turning a
// JavaScript tags object into its own tag set on each call. Compared with the VU's tags
// themselves, not with a copy of what was set last: a VU that moves on to the next scenario
// (the sequential model's warm-up, then its measured iteration) gets that scenario's tags, and
// a copy would keep saying the name was set (the measured creates went out unnamed).
let vuTags;
/** Tags the VU's next requests and metrics with `name` and `phase` (each set only when it changes). */
export function tag(name, phase) {
  vuTags ??= exec.vu.tags;
  // (Not in setup(), __VU 0: no scenario has started; its requests are no part of the load.)
  if (TIMELINE_SECONDS > 0 && __VU > 0) tickTimeline();
  if (vuTags.name !== name) vuTags.name = name;
  if (vuTags.phase !== phase) vuTags.phase = phase;
}

const paramsCache = {};
/**
 * Tags the VU (tag) and returns the request's parameters: the body type, and `headers` when
 * given (the same object every time for a name), built once per (name, body type) — no
 * object per request.
 */
export function params(name, phase, full, headers) {
  tag(name, phase);
  const type = bodyType(name, full);
  const byType = (paramsCache[name] ??= {});
  return (byType[type] ??= { responseType: type, ...(headers ? { headers } : {}) });
}

function learn(name, length, sized) {
  const s = (shapes[name] ??= { min: length, max: length, sized });
  if (length < s.min) s.min = length;
  if (length > s.max) s.max = length;
  if (!sized) s.sized = false;
}

/** An answer read without its body: its length against the request type's checked answers. */
function lengthOk(res, name) {
  const s = shapes[name];
  if (!s) return true;
  const header = res.headers['Content-Length'];
  const length = header !== undefined ? Number(header) : res.body instanceof ArrayBuffer ? res.body.byteLength : undefined;
  if (length === undefined) return true;
  return length * 2 >= s.min && length <= s.max * 3;
}

// Server-Timing's app;dur= without a regular expression per answer.
const DUR = 'app;dur=';
function serverTiming(res) {
  const h = res.headers['Server-Timing'];
  if (h === undefined) return undefined;
  const at = h.indexOf(DUR);
  return at < 0 ? undefined : parseFloat(h.slice(at + DUR.length));
}

// The failure rate per request (metric `failed`) only feeds the over-time windows and a
// stress test's stop conditions (bench/k6/windows.js): a script using them asks for it.
let keepFailedRate = false;
export function trackFailedRate() {
  keepFailedRate = true;
}

// The start of the scenarios, once: exec.scenario builds a new object on every access.
let scenarioStart;
let second = -1;

/** The VU's tag sec: the second of the load this VU's next request is sent in (see TIMELINE_SECONDS). */
function tickTimeline() {
  scenarioStart ??= exec.scenario.startTime;
  const now = Math.floor((Date.now() - scenarioStart) / 1000);
  if (now === second) return;
  second = now;
  vuTags ??= exec.vu.tags;
  vuTags.sec = now < TIMELINE_SECONDS ? String(now) : 'after';
}

/**
 * Records one response: an error unless it had `status` and, when its body was read (see
 * fullCheck), `ok(body)`; a body not read is checked by its length. The answers read in full
 * also give the server's time and the latency sums. Its tags are the VU's (name, phase: tag()).
 */
export function record(res, name, phase, status, ok) {
  tag(name, phase);
  let failure;
  if (res.status !== status) failure = statusKey(res.status);
  // A 204 has no body to read (k6 gives null): it counts as read, so that its server time is kept.
  const body = res.status === 204 ? (res.body ?? '') : res.body;
  const read = typeof body === 'string';
  if (read) {
    const ms = res.timings.duration;
    latencySum.add(ms);
    latencySquares.add(ms * ms);
    latencyN.add(1);
    const server = serverTiming(res);
    if (server !== undefined) serverMs.add(server);
    if (failure === undefined && ok) {
      if (!ok(body)) failure = 'check';
      else {
        const header = res.headers['Content-Length'];
        learn(name, header !== undefined ? Number(header) : body.length, header !== undefined);
      }
    }
  } else if (failure === undefined && ok && !lengthOk(res, name)) failure = 'check';
  if (failure) errors.add(1, { status: failure });
  if (keepFailedRate) failedRate.add(failure !== undefined);
  if (APDEX && failure === undefined) {
    const ms = res.timings.duration;
    if (ms <= APDEX.fMs) (ms <= APDEX.tMs ? apdexSatisfied : apdexTolerating).add(1);
  }
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
    dropped_iterations: ['count>=0'],
    'skipped{phase:measure}': ['count>=0'],
  };
  if (APDEX)
    for (const tag of ['', ...names.map((n) => `,name:${n}`)]) {
      t[`apdex_satisfied{phase:measure${tag}}`] = ['count>=0'];
      t[`apdex_tolerating{phase:measure${tag}}`] = ['count>=0'];
    }
  for (const key of STATUS_KEYS) t[`errors{phase:measure,status:${key}}`] = ['count>=0'];
  for (let second = 0; second < TIMELINE_SECONDS; second++) t[`http_req_duration{sec:${second}}`] = ['max>=0'];
  t['latency_n{phase:measure}'] = ['count>=0'];
  for (const name of names) t[`latency_n{phase:measure,name:${name}}`] = ['count>=0'];
  // Each switched slice's own figures (the errors by status too: they are sampled only when a request fails).
  for (const slice of SLICE_NAMES) {
    const tags = `phase:measure,slice:${slice}`;
    t[`http_reqs{${tags}}`] = ['count>=0'];
    t[`http_req_duration{${tags}}`] = ['max>=0'];
    t[`server_ms{${tags}}`] = ['max>=0'];
    t[`latency_sum_ms{${tags}}`] = ['count>=0'];
    t[`latency_sq_ms2{${tags}}`] = ['count>=0'];
    t[`latency_n{${tags}}`] = ['count>=0'];
    t[`skipped{${tags}}`] = ['count>=0'];
    for (const key of STATUS_KEYS) t[`errors{${tags},status:${key}}`] = ['count>=0'];
  }
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
