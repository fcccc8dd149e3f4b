// The users benchmark's load (the paper's JMeter test plans): users arrive
// evenly over a ramp — USERS users started within SECONDS seconds, as JMeter's ramp-up
// starts its threads — and each runs its flow once. Every parameter comes from the
// environment (the runner sets them from scenario.yaml beside this file, through index.ts):
//
//   BASE_URL        http://127.0.0.1:<port> of the implementation
//   STEPS           the flow: operations in order, comma-separated; ':admin' or ':self'
//                   says whose token a step sends (e.g. registerUser,login,deleteUser:self)
//   USERS, SECONDS  arrivals: USERS flows started evenly over SECONDS seconds
//                   (k6 constant-arrival-rate, rate USERS per SECONDS, for SECONDS)
//   DRAIN           seconds the flows still running after the last arrival may take
//   WARMUP          seconds of one user running the flow again and again before the
//                   arrivals (JIT, pools): one at a time, so no queue is left behind
//   RUN             a prefix that makes this repetition's usernames unique
//   ADMIN_USERNAME, ADMIN_PASSWORD  a seeded admin: setup() logs in once, as an admin
//                   client would, for the steps marked ':admin'
//   SUMMARY_PATH    where handleSummary writes the JSON summary
//
// Each flow registers a fresh user (unique username), and the steps after it act on that
// user; a flow whose step fails sends none of its later steps (counted as skipped).
// Requests carry the tags name (the operation) and phase (warmup | measure).
import http from 'k6/http';
import exec from 'k6/execution';
import {
  bodyType,
  tag,
  count,
  env,
  fullCheck,
  record,
  reported,
  skipped,
  SYSTEM_TAGS,
  TREND_STATS,
  windowStart,
  writeSummary,
} from '../../../bench/k6/measure.js';

const S = 'users.js';
const BASE_URL = env(S, 'BASE_URL');
const STEPS = env(S, 'STEPS')
  .split(',')
  .map((s) => {
    const [op, auth] = s.trim().split(':');
    return { op, auth: auth ?? null };
  });
const USERS = Number(env(S, 'USERS'));
const SECONDS = Number(env(S, 'SECONDS'));
const DRAIN = Number(env(S, 'DRAIN', '120'));
const WARMUP = Number(env(S, 'WARMUP', '0'));
const RUN = env(S, 'RUN');
const ADMIN_USERNAME = __ENV.ADMIN_USERNAME ?? '';
const ADMIN_PASSWORD = __ENV.ADMIN_PASSWORD ?? '';
const PASSWORD = 'bench-password-1';
const LIMIT = 100;

const OPS = ['registerUser', 'login', 'listUsers', 'getUser', 'getMe', 'adminListUsers', 'updateUser', 'deleteUser'];
for (const { op, auth } of STEPS) {
  if (!OPS.includes(op)) throw new Error(`${S}: unknown operation ${op} in STEPS`);
  if (auth !== null && auth !== 'admin' && auth !== 'self') throw new Error(`${S}: ${op}:${auth}: the token is admin or self`);
}
if (STEPS.some((s) => s.auth === 'admin') && !ADMIN_USERNAME) throw new Error(`${S}: a step needs the admin's token: set ADMIN_USERNAME and ADMIN_PASSWORD`);

const scenarios = {
  measure: {
    executor: 'constant-arrival-rate',
    exec: 'measure',
    rate: USERS,
    timeUnit: `${SECONDS}s`,
    // Arrivals at 0, T/N, …, (N−1)·T/N: k6 would start one more at T itself.
    duration: `${Math.round(SECONDS * 1000 * (1 - 1 / (2 * USERS)))}ms`,
    preAllocatedVUs: USERS,
    maxVUs: USERS,
    startTime: `${WARMUP}s`,
    gracefulStop: `${DRAIN}s`,
  },
};
if (WARMUP > 0) scenarios.warmup = { executor: 'constant-vus', exec: 'warmup', vus: 1, duration: `${WARMUP}s`, gracefulStop: '0s' };

export const options = {
  scenarios,
  thresholds: reported([...new Set(STEPS.map((s) => s.op))]),
  summaryTrendStats: TREND_STATS,
  systemTags: SYSTEM_TAGS,
  setupTimeout: '60s',
};

const JSON_HEADERS = { 'Content-Type': 'application/json' };
const LIST_URL = `${BASE_URL}/users?limit=${LIMIT}`;
const ADMIN_LIST_URL = `${BASE_URL}/admin/users?limit=${LIMIT}`;
const USERS_URL = `${BASE_URL}/users`;
const LOGIN_URL = `${BASE_URL}/auth/login`;
const ME_URL = `${BASE_URL}/me`;

export function setup() {
  let adminToken = null;
  if (ADMIN_USERNAME) {
    const res = http.post(`${BASE_URL}/auth/login`, JSON.stringify({ username: ADMIN_USERNAME, password: ADMIN_PASSWORD }), {
      headers: JSON_HEADERS,
      tags: { name: 'login', phase: 'setup' },
    });
    if (res.status !== 200) throw new Error(`${S}: the admin ${ADMIN_USERNAME} cannot log in: ${res.status} ${res.body}`);
    adminToken = res.json('token');
  }
  // The arrivals begin WARMUP seconds after the scenarios start (right after setup).
  return { measureFrom: windowStart(WARMUP), adminToken };
}

/**
 * One request of a flow; returns the response when it succeeded, else null. The answers a
 * later step reads (registerUser's id, login's token) are always read whole; the others' bodies
 * on measure.js's declared sample (fullCheck), by status and length otherwise.
 */
function step(op, user, token, phase) {
  // The VU's tags name and phase are this request's (measure.js tag): no tags object per request.
  tag(op, phase);
  const auth = token ? { Authorization: `Bearer ${token}` } : {};
  const id = user.id;
  const responseType = bodyType(op, op === 'registerUser' || op === 'login' || fullCheck(phase));
  switch (op) {
    case 'registerUser': {
      const res = http.post(USERS_URL, JSON.stringify({ name: 'Bench', surname: 'User', username: user.username, password: PASSWORD }), {
        headers: JSON_HEADERS,
        responseType,
      });
      return record(res, op, phase, 201, (b) => b.includes(`"username":"${user.username}"`)) ? res : null;
    }
    case 'login': {
      const res = http.post(LOGIN_URL, JSON.stringify({ username: user.username, password: PASSWORD }), { headers: JSON_HEADERS, responseType });
      return record(res, op, phase, 200, (b) => b.includes('"token":"')) ? res : null;
    }
    case 'listUsers': {
      const res = http.get(LIST_URL, { responseType });
      return record(res, op, phase, 200, (b) => count(b, '"username":') === LIMIT) ? res : null;
    }
    case 'adminListUsers': {
      const res = http.get(ADMIN_LIST_URL, { headers: auth, responseType });
      return record(res, op, phase, 200, (b) => count(b, '"username":') === LIMIT) ? res : null;
    }
    case 'getUser': {
      const res = http.get(USERS_URL + '/' + id, { responseType });
      return record(res, op, phase, 200, (b) => b.includes(`"username":"${user.username}"`)) ? res : null;
    }
    case 'getMe': {
      const res = http.get(ME_URL, { headers: auth, responseType });
      return record(res, op, phase, 200, (b) => b.includes(`"username":"${user.username}"`)) ? res : null;
    }
    case 'updateUser': {
      const res = http.put(USERS_URL + '/' + id, JSON.stringify({ name: 'Renamed', surname: 'Bench' }), {
        headers: { ...JSON_HEADERS, ...auth },
        responseType,
      });
      return record(res, op, phase, 200, (b) => b.includes('"name":"Renamed"')) ? res : null;
    }
    case 'deleteUser': {
      // 204: no body to read.
      const res = http.del(USERS_URL + '/' + id, null, { headers: auth, responseType: 'none' });
      return record(res, op, phase, 204) ? res : null;
    }
  }
  throw new Error(`${S}: unknown operation ${op}`);
}

function flow(data, phase, username) {
  const user = { username, id: null, token: null };
  for (let i = 0; i < STEPS.length; i++) {
    const { op, auth } = STEPS[i];
    const token = auth === 'admin' ? data.adminToken : auth === 'self' ? user.token : null;
    const res = step(op, user, token, phase);
    if (res === null) {
      for (const later of STEPS.slice(i + 1)) skipped(later.op, phase);
      return;
    }
    if (op === 'registerUser') user.id = res.json('id');
    if (op === 'login') user.token = res.json('token');
  }
}

// Usernames: lowercase letters and digits, unique per repetition (RUN), phase and iteration.
export function measure(data) {
  flow(data, 'measure', `b${RUN}m${exec.scenario.iterationInTest}`);
}

export function warmup(data) {
  flow(data, 'warmup', `b${RUN}w${exec.scenario.iterationInTest}`);
}

export const handleSummary = writeSummary;
