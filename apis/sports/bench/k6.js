// The sports load test (the paper's JMeter plan): each user group of scenario.yaml is a k6
// ramping-vus scenario whose users repeat the group's requests without think time, on the
// paper's ramp (Table 3). Every parameter comes from the environment (set by index.ts):
//
//   BASE_URL        http://127.0.0.1:<port> of the implementation
//   GROUPS          JSON {name: {account: new|seeded|owner, steps: [...]}}
//   STAGES          JSON [{seconds, target}]: each group's users over time
//   WARMUP          seconds of one user running every group in turn before the ramp
//   RUN             a prefix that makes this repetition's usernames unique
//   OWNERS          JSON [{id, username, password, facilities: [ids]}] (seeded owners)
//   USERS           JSON [{username, password}] (seeded users, for the retrieve group)
//   FIELD_OWNERS    JSON [ownerId of field 1, of field 2, ...]
//   SUMMARY_PATH    where handleSummary writes the JSON summary
//   OVER_TIME_SECONDS the response-time-over-time windows (tag tw), over SECONDS of ramp
//   STRESS          JSON of the stress case's shape (scenario.yaml stress): its stop
//                   conditions become aborting thresholds (bench/k6/windows.js), and
//                   teardown checks the recovery (a seeded user's login answers normally)
//   APDEX_T_MS, APDEX_F_MS  Apdex's T and F (bench/k6/measure.js counts them)
//   ITERATIONS      instead of the ramp, each group's one user runs exactly this many
//                   iterations (make pact's consumer runs: requests fixed in advance)
//
// setup() logs every owner in once (the owners' clients holding their tokens), so an
// acceptance is one request. Reservations take a slot no other iteration takes (a unique
// date and hour per iteration), so a 409 is an error here, not contention. A step that
// fails ends its iteration; the later steps are counted as skipped.
import http from 'k6/http';
import exec from 'k6/execution';
import {
  bodyType,
  tag,
  env,
  fullCheck,
  record,
  recover,
  reported,
  skipped,
  SYSTEM_TAGS,
  trackFailedRate,
  TREND_STATS,
  windowStart,
  writeSummary,
} from '../../../bench/k6/measure.js';
import { stressThresholds, overTimeThresholds, windowTags } from '../../../bench/k6/windows.js';

const S = 'sports.js';
const BASE_URL = env(S, 'BASE_URL');
const GROUPS = JSON.parse(env(S, 'GROUPS'));
const STAGES = JSON.parse(env(S, 'STAGES'));
const WARMUP = Number(env(S, 'WARMUP', '0'));
const RUN = env(S, 'RUN');
const OWNERS = JSON.parse(env(S, 'OWNERS'));
const USERS = JSON.parse(env(S, 'USERS'));
const FIELD_OWNERS = JSON.parse(env(S, 'FIELD_OWNERS'));
const PASSWORD = 'bench-password-1';
const JSON_HEADERS = { 'Content-Type': 'application/json' };
const NAMES = Object.keys(GROUPS);
const ITERATIONS = Number(env(S, 'ITERATIONS', '0'));
const OVER_TIME_MS = Number(env(S, 'OVER_TIME_SECONDS', '60')) * 1000;
const SECONDS = Number(env(S, 'SECONDS', '0'));
const STRESS = __ENV.STRESS ? JSON.parse(__ENV.STRESS) : null;
// A stop condition's window is judged this long after its end plus the warm-up: setup's
// owner logins take a few seconds (bench/k6/windows.js).
const SETUP_MARGIN_SECONDS = 15;
// Reservation slots: day (from 2030-01-01) and hour, unique per (group, iteration) below 25,000 × 16 × groups.
const FIRST_DAY = Date.UTC(2030, 0, 1);
const DAYS = 25000;

const scenarios = {};
for (const name of NAMES) {
  scenarios[name] =
    ITERATIONS > 0
      ? { executor: 'per-vu-iterations', exec: 'run', vus: 1, iterations: ITERATIONS, startTime: `${WARMUP}s`, maxDuration: '60s' }
      : {
          executor: 'ramping-vus',
          exec: 'run',
          startVUs: 0,
          stages: STAGES.map((s) => ({ duration: `${Math.round(s.seconds * 1000)}ms`, target: s.target })),
          startTime: `${WARMUP}s`,
          gracefulRampDown: '10s',
          gracefulStop: '10s',
        };
}
const thresholds = { ...reported([...new Set(NAMES.flatMap((n) => GROUPS[n].steps))]), ...overTimeThresholds(Math.ceil((SECONDS * 1000) / OVER_TIME_MS) + 1) };
if (STRESS) Object.assign(thresholds, stressThresholds(STRESS.failure, STRESS.maxSeconds + 10, WARMUP + SETUP_MARGIN_SECONDS));
if (WARMUP > 0) scenarios.warmup = { executor: 'constant-vus', exec: 'warmup', vus: 1, duration: `${WARMUP}s`, gracefulStop: '0s' };

export const options = {
  scenarios,
  thresholds,
  summaryTrendStats: TREND_STATS,
  systemTags: SYSTEM_TAGS,
  setupTimeout: '120s',
};
// The over-time windows and the stop conditions read the failure rate per request.
trackFailedRate();

function login(username, password, phase) {
  const res = http.post(`${BASE_URL}/sports/login`, JSON.stringify({ username, password }), { headers: JSON_HEADERS, tags: { name: 'login', phase } });
  return record(res, 'login', phase, 200, (b) => b.includes('"token":"')) ? res.json('token') : null;
}

export function setup() {
  const ownerTokens = {};
  for (const o of OWNERS) {
    const token = login(o.username, o.password, 'setup');
    if (token === null) throw new Error(`${S}: the owner ${o.username} cannot log in`);
    ownerTokens[o.id] = token;
  }
  return { measureFrom: windowStart(WARMUP), ownerTokens };
}

// The stress test's recovery: once the load stopped (at the failure or the cap), a seeded user's login must answer normally again.
export function teardown() {
  if (!STRESS) return;
  const probe = () => {
    const res = http.post(`${BASE_URL}/sports/login`, JSON.stringify(USERS[0]), {
      headers: JSON_HEADERS,
      tags: { name: 'login', phase: 'recovery' },
      timeout: `${STRESS.recovery.withinSeconds}s`,
    });
    return res.status === 200 && res.body.includes('"token":"');
  };
  recover(probe, STRESS.recovery.withinSeconds, STRESS.recovery.everyMs);
}

const bearer = (token) => ({ ...JSON_HEADERS, Authorization: `Bearer ${token}` });

/**
 * One step; returns false when it failed (the iteration stops). The answers a later step
 * reads (login's token, reserve's id) are always read whole; the others' bodies on
 * measure.js's declared sample (fullCheck), by status and length otherwise.
 */
function step(op, ctx, data, phase) {
  // The VU's tags name and phase are this request's (measure.js tag): no tags object per request.
  tag(op, phase);
  const responseType = bodyType(op, op === 'login' || op === 'reserve' || fullCheck(phase));
  switch (op) {
    case 'signUp': {
      const res = http.post(`${BASE_URL}/sports/users`, JSON.stringify({ username: ctx.username, password: ctx.password, name: 'Bench', surname: 'User' }), {
        headers: JSON_HEADERS,
        responseType,
      });
      return record(res, op, phase, 201, (b) => b.includes(`"username":"${ctx.username}"`));
    }
    case 'login': {
      const res = http.post(`${BASE_URL}/sports/login`, JSON.stringify({ username: ctx.username, password: ctx.password }), {
        headers: JSON_HEADERS,
        responseType,
      });
      const ok = record(res, op, phase, 200, (b) => b.includes('"token":"'));
      if (ok) ctx.token = res.json('token');
      return ok;
    }
    case 'listFacilities': {
      const res = http.get(`${BASE_URL}/sports/sports-facilities?page=${1 + (ctx.k % 5)}`, { headers: bearer(ctx.token), responseType });
      return record(res, op, phase, 200, (b) => b.includes('"items":[{'));
    }
    case 'listFields': {
      const res = http.get(`${BASE_URL}/sports/sports-fields?page=${1 + (ctx.k % 20)}`, { headers: bearer(ctx.token), responseType });
      return record(res, op, phase, 200, (b) => b.includes('"items":[{'));
    }
    case 'createField': {
      const facility = ctx.owner.facilities[ctx.k % ctx.owner.facilities.length];
      const res = http.post(
        `${BASE_URL}/sports/sports-facilities/${facility}/sports-field`,
        JSON.stringify({ name: `F${RUN}${ctx.tag}`, sport: 'padel', pricePerHour: 20 }),
        { headers: bearer(ctx.token), responseType },
      );
      return record(res, op, phase, 201, (b) => b.includes(`"facilityId":${facility}`));
    }
    case 'reserve': {
      ctx.fieldId = 1 + Math.floor(Math.random() * FIELD_OWNERS.length);
      const date = new Date(FIRST_DAY + (ctx.slot % DAYS) * 86400000).toISOString().slice(0, 10);
      const startHour = 6 + (Math.floor(ctx.slot / DAYS) % 16);
      const res = http.post(`${BASE_URL}/sports/reservations`, JSON.stringify({ fieldId: ctx.fieldId, date, startHour, endHour: startHour + 1 }), {
        headers: bearer(ctx.token),
        responseType,
      });
      const ok = record(res, op, phase, 201, (b) => b.includes('"status":"pending"'));
      if (ok) ctx.reservationId = res.json('id');
      return ok;
    }
    case 'accept': {
      const ownerToken = data.ownerTokens[FIELD_OWNERS[ctx.fieldId - 1]];
      const res = http.put(`${BASE_URL}/sports/reservations/${ctx.reservationId}/status`, JSON.stringify({ status: 'accepted' }), {
        headers: bearer(ownerToken),
        responseType,
      });
      return record(res, op, phase, 200, (b) => b.includes('"status":"accepted"'));
    }
    case 'rate': {
      const res = http.post(`${BASE_URL}/sports/reservations/${ctx.reservationId}/rating`, JSON.stringify({ score: 1 + (ctx.k % 5), comment: 'bench' }), {
        headers: bearer(ctx.token),
        responseType,
      });
      return record(res, op, phase, 201, (b) => b.includes('"score":'));
    }
  }
  throw new Error(`${S}: unknown step ${op}`);
}

function iteration(name, k, data, phase) {
  const group = GROUPS[name];
  const g = NAMES.indexOf(name);
  // k: this group's iteration number; tag: unique in the repetition; slot: unique per (group, iteration).
  const ctx = { k, tag: `${phase[0]}${g}x${k}`, slot: k * NAMES.length + g + (phase === 'warmup' ? DAYS * 15 : 0), token: null };
  if (group.account === 'new') Object.assign(ctx, { username: `s${RUN}${ctx.tag}`, password: PASSWORD });
  else if (group.account === 'seeded') Object.assign(ctx, USERS[k % USERS.length]);
  else Object.assign(ctx, { owner: OWNERS[k % OWNERS.length] }, { username: OWNERS[k % OWNERS.length].username, password: OWNERS[k % OWNERS.length].password });
  for (let i = 0; i < group.steps.length; i++) {
    // Each request in the windows of the moment it is sent (VU tags: every metric carries them).
    if (phase === 'measure') for (const [key, v] of Object.entries(windowTags(Date.now() - data.measureFrom, OVER_TIME_MS, STRESS))) exec.vu.tags[key] = v;
    if (!step(group.steps[i], ctx, data, phase)) {
      for (const later of group.steps.slice(i + 1)) skipped(later, phase);
      return;
    }
  }
}

export function run(data) {
  iteration(exec.scenario.name, exec.scenario.iterationInTest, data, 'measure');
}

// The warm-up user runs the groups in turn (JIT, pools), on slots the ramp never takes.
export function warmup(data) {
  const k = exec.scenario.iterationInTest;
  iteration(NAMES[k % NAMES.length], k, data, 'warmup');
}

export function handleSummary(data) {
  return writeSummary(data, {
    overTimeSeconds: OVER_TIME_MS / 1000,
    ...(STRESS ? { stress: { failure: STRESS.failure, capSeconds: STRESS.maxSeconds, recoverySeconds: STRESS.recovery.withinSeconds } } : {}),
  });
}
