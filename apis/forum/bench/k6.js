// The forum benchmark's load: one script for REST and GraphQL, every parameter from the
// environment (the runner sets them from scenario.yaml beside this file, through index.ts):
//
//   BASE_URL        http://127.0.0.1:<port> of the implementation (or SLICE_BASES and the
//                   other SLICE_* of switched slices: bench/k6/measure.js target())
//   PROTOCOL        rest | graphql
//   ROWS, JOINS     the paper's axes: rows 1 → comment by id (joins 0) / the user's first
//                   comment with its user (joins 1); rows 50/100 → comments by limit
//                   (joins 0) / a user's comments with limit and user (joins 1)
//   MODEL           closed (VUS looping, the paper's JMeter threads) | open (RATE arrivals/s,
//                   at most VUS in flight)
//   VUS, RATE       concurrency / arrival rate
//   WARMUP, DURATION  seconds: the warm-up, then the measured window, in one run so that
//                   connections stay open across the boundary
//   COMMENT_IDS, USER_IDS  the data set's id ranges (1..n); SEED the PRNG seed
//   SUMMARY_PATH    where handleSummary writes the JSON summary
//
// Requests started after the warm-up carry the tag phase=measure (bench/k6/measure.js
// has the window, the error counts, the server time and the summary).
import http from 'k6/http';
import exec from 'k6/execution';
import {
  BASES,
  count,
  env as required,
  fullCheck,
  params,
  record,
  reported,
  SYSTEM_TAGS,
  target,
  TREND_STATS,
  windowStart,
  writeSummary,
} from '../../../bench/k6/measure.js';
import { mulberry32 } from '../../../bench/k6/prng.js';

const env = (name, fallback) => required('forum k6.js', name, fallback);
const PROTOCOL = env('PROTOCOL');
const ROWS = Number(env('ROWS'));
const JOINS = Number(env('JOINS'));
const MODEL = env('MODEL', 'closed');
const VUS = Number(env('VUS'));
const RATE = Number(env('RATE', '0'));
const WARMUP = Number(env('WARMUP', '0'));
const DURATION = Number(env('DURATION'));
const COMMENT_IDS = Number(env('COMMENT_IDS'));
const USER_IDS = Number(env('USER_IDS'));
const SEED = Number(env('SEED', '1'));

if (!['rest', 'graphql'].includes(PROTOCOL)) throw new Error(`forum.js: PROTOCOL must be rest or graphql, got ${PROTOCOL}`);
if (!['closed', 'open'].includes(MODEL)) throw new Error(`forum.js: MODEL must be closed or open, got ${MODEL}`);

const COMMENT_FIELDS = 'comment_id thread_id user_id body datemade datelastupdated';
const USER_FIELDS = 'user { user_id name email phone datemade datelastupdated }';

// The four operations (../conformance/cases/operations.yaml): which one a case asks
// follows from rows and joins; `id` draws the argument. `rest` and `graphql` give the
// request's path and GraphQL body for an id from strings built once (k6 spends its time per
// request: no template or JSON.stringify in the loop).
const gqlBody = (query, variables) => {
  // {"query":…,"variables":{"id":<id>[,"limit":ROWS]}}: the same JSON JSON.stringify gives.
  const prefix = `{"query":${JSON.stringify(query)},"variables":{`;
  return variables === 'id'
    ? (id) => `${prefix}"id":${id}}}`
    : variables === 'id+limit'
      ? (id) => `${prefix}"id":${id},"limit":${ROWS}}}`
      : () => `${prefix}"limit":${ROWS}}}`;
};
const OPERATION = (() => {
  if (ROWS === 1 && JOINS === 0) {
    return {
      name: 'commentById',
      id: 'comment',
      rest: (id) => '/comment/' + id,
      graphql: gqlBody(`query Q($id: ID!) { commentById(id: $id) { ${COMMENT_FIELDS} } }`, 'id'),
    };
  }
  if (ROWS === 1 && JOINS === 1) {
    const tail = '/comment';
    return {
      name: 'commentByUserId',
      id: 'user',
      rest: (id) => '/user/' + id + tail,
      graphql: gqlBody(`query Q($id: ID!) { commentByUserId(id: $id) { ${COMMENT_FIELDS} ${USER_FIELDS} } }`, 'id'),
    };
  }
  if (JOINS === 0) {
    const path = `/comments/${ROWS}`;
    return {
      name: 'commentsByLimit',
      id: null,
      rest: () => path,
      graphql: gqlBody(`query Q($limit: Int!) { commentsByLimit(limit: $limit) { ${COMMENT_FIELDS} } }`, 'limit'),
    };
  }
  const tail = `/comments/${ROWS}`;
  return {
    name: 'commentsByUserId',
    id: 'user',
    rest: (id) => '/user/' + id + tail,
    graphql: gqlBody(`query Q($id: ID!, $limit: Int!) { commentsByUserId(id: $id, limit: $limit) { ${COMMENT_FIELDS} ${USER_FIELDS} } }`, 'id+limit'),
  };
})();

const total = WARMUP + DURATION;
const scenario =
  MODEL === 'closed'
    ? { executor: 'constant-vus', vus: VUS, duration: `${total}s`, gracefulStop: '10s' }
    : { executor: 'constant-arrival-rate', rate: RATE, timeUnit: '1s', duration: `${total}s`, preAllocatedVUs: VUS, maxVUs: VUS, gracefulStop: '10s' };

export const options = {
  scenarios: { forum: scenario },
  thresholds: reported([OPERATION.name]),
  summaryTrendStats: TREND_STATS,
  systemTags: SYSTEM_TAGS,
};

let random;
const draw = (n) => 1 + Math.floor(random() * n);

export function setup() {
  return { measureFrom: windowStart(WARMUP) };
}

// count() finds occurrences without parsing: JSON.parse of a 100-row answer in every
// iteration would cost k6 more CPU than the server under test spends on it.
// A member's value ends at a comma or a brace: JSON promises no member order.
const hasMember = (body, name, value) => body.includes(`"${name}":${value},`) || body.includes(`"${name}":${value}}`);
function bodyOk(body, id) {
  if (typeof body !== 'string') return false;
  if (PROTOCOL === 'graphql' && body.includes('"errors"')) return false;
  if (count(body, '"comment_id":') !== ROWS) return false;
  if (JOINS === 1) return count(body, '"user":{') === ROWS && hasMember(body, 'user_id', id);
  return ROWS !== 1 || hasMember(body, 'comment_id', id);
}

if (BASES.some((base) => !base)) throw new Error('forum k6.js: BASE_URL is not set');
const GRAPHQL_URLS = BASES.map((base) => `${base}/graphql`);
const HEADERS = PROTOCOL === 'graphql' ? { 'Content-Type': 'application/json' } : undefined;
const NAME = OPERATION.name;

export default function (data) {
  // idInTest, not __VU: k6 instances sharing the scenario by execution segments number their VUs apart (1 instance: the same).
  random ??= mulberry32(SEED * 100003 + exec.vu.idInTest);
  const id = OPERATION.id === 'comment' ? draw(COMMENT_IDS) : OPERATION.id === 'user' ? draw(USER_IDS) : null;
  // The implementation this request goes to (one, or a switched slice's) and the phase.
  const { side, phase } = target(data.measureFrom);
  // The body of a declared sample is read and checked in full, the others by status and length (measure.js fullCheck).
  const full = fullCheck(phase);
  const p = params(NAME, phase, full, HEADERS);
  const res = PROTOCOL === 'rest' ? http.get(BASES[side] + OPERATION.rest(id), p) : http.post(GRAPHQL_URLS[side], OPERATION.graphql(id), p);
  record(res, NAME, phase, 200, (body) => bodyOk(body, id));
}

export const handleSummary = writeSummary;
