// The documents benchmark's load (the paper's protocol): create, read,
// replace and delete documents of one payload shape (KIND). Every parameter comes from the
// environment (the runner sets them from scenario.yaml beside this file, through index.ts):
//
//   BASE_URL   http://127.0.0.1:<port> of the implementation (or SLICE_BASES and the other
//              SLICE_* of switched slices, closed model only: bench/k6/measure.js target())
//   KIND       text | list | record | table (../dataset/payloads.js)
//   MODEL      sequential: the paper's — one client, COUNT creates one after another, then
//                COUNT reads of those documents, COUNT replaces, COUNT deletes;
//              closed: VUS clients, each looping create → read → replace → delete of its
//                own document for DURATION seconds (not in the paper)
//   COUNT      requests of each operation (sequential)
//   VUS, DURATION  clients and measured seconds (closed)
//   WARMUP     seconds of one client looping create → read → replace → delete before the
//              measured part (sequential: before it starts; closed: the same VUS, untimed)
//   SEED       payloads are payload(KIND, seed) with seeds derived from it
//   SUMMARY_PATH  where handleSummary writes the JSON summary
//
// Requests carry the tags name (the operation) and phase (warmup | measure); every
// response's Server-Timing app;dur= goes into server_ms with the same tags.
import http from 'k6/http';
import exec from 'k6/execution';
import { SharedArray } from 'k6/data';
import { KINDS, payload } from '../dataset/payloads.js';
import {
  BASES,
  env,
  fullCheck,
  params,
  record,
  reported,
  skipped,
  SYSTEM_TAGS,
  target,
  TREND_STATS,
  windowStart,
  writeSummary,
} from '../../../bench/k6/measure.js';

const S = 'documents.js';
const KIND = env(S, 'KIND');
const MODEL = env(S, 'MODEL');
const COUNT = Number(env(S, 'COUNT', '100'));
const VUS = Number(env(S, 'VUS', '1'));
const DURATION = Number(env(S, 'DURATION', '0'));
const WARMUP = Number(env(S, 'WARMUP', '0'));
const SEED = Number(env(S, 'SEED', '1'));

if (!KINDS.includes(KIND)) throw new Error(`${S}: KIND must be one of ${KINDS.join(', ')}, got ${KIND}`);
if (!['sequential', 'closed'].includes(MODEL)) throw new Error(`${S}: MODEL must be sequential or closed, got ${MODEL}`);
// Switched slices: each document's life goes to the implementation of the slice it begins in (its own database).
if (BASES.some((base) => !base)) throw new Error(`${S}: BASE_URL is not set`);
const SWITCHED = BASES.length > 1;
if (SWITCHED && MODEL !== 'closed') throw new Error(`${S}: only the closed model switches slices (the sequential one is one client's one pass)`);

const OPS = ['createDocument', 'getDocument', 'replaceDocument', 'deleteDocument'];
// Bodies are built once for all VUs (SharedArray): JSON.stringify of a 125 KB table in every
// iteration would cost k6 more than the server spends, and building them in every VU's init
// context took k6 minutes of CPU at 32 VUs of tables. Creates and replaces send different
// payloads of the same shape.
const BODIES = new SharedArray(`bodies-${KIND}-${SEED}`, () =>
  Array.from({ length: 8 }, (_, i) => JSON.stringify({ kind: KIND, payload: payload(KIND, SEED * 1000 + i) })),
);
// A SharedArray element is parsed from its JSON on every access (a 150 KB table each time):
// each VU keeps the ones it has read.
const bodies = [];
const body = (i) => (bodies[i % BODIES.length] ??= BODIES[i % BODIES.length]);
const HEADERS = { 'Content-Type': 'application/json' };

const scenarios =
  MODEL === 'sequential'
    ? {
        // One iteration of one VU sends all 4 × COUNT requests; bounded by maxDuration.
        measure: {
          executor: 'per-vu-iterations',
          exec: 'sequential',
          vus: 1,
          iterations: 1,
          startTime: `${WARMUP}s`,
          maxDuration: `${Math.max(60, COUNT * 4)}s`,
        },
      }
    : { measure: { executor: 'constant-vus', exec: 'loop', vus: VUS, duration: `${WARMUP + DURATION}s`, gracefulStop: '10s' } };
if (MODEL === 'sequential' && WARMUP > 0) scenarios.warmup = { executor: 'constant-vus', exec: 'loop', vus: 1, duration: `${WARMUP}s`, gracefulStop: '0s' };

export const options = {
  scenarios,
  thresholds: reported(OPS),
  summaryTrendStats: TREND_STATS,
  systemTags: SYSTEM_TAGS,
};

export function setup() {
  return { measureFrom: windowStart(WARMUP) };
}

// The phase of each request when it starts (closed: a life begun in the warm-up has its
// later requests measured once the window is open: slow lives must not empty the window).
const phaseNow = (data) => (MODEL === 'sequential' || Date.now() < data.measureFrom ? 'warmup' : 'measure');

// A created document is then addressed as a REST client does: by the Location of the 201
// (/documents/{id}), which the client follows; its id is what the answers must carry. The
// create's answer is always read whole (its id is needed); a read's and a replace's on
// measure.js's declared sample in the closed model (fullCheck), always in the sequential one
// (one client: k6's cost is no limit there).
const CREATE_URLS = BASES.map((base) => `${base}/documents`);
const full = (phase) => MODEL === 'sequential' || fullCheck(phase);

/** Creates document i on BASES[side] (BASE_URL without slices). */
function create(i, phase, side = 0) {
  const res = http.post(CREATE_URLS[side], body(i), params('createDocument', phase, true, HEADERS));
  const url = res.headers.Location;
  const ok = record(res, 'createDocument', phase, 201, (b) => b.includes(`"kind":"${KIND}"`) && typeof url === 'string' && url.startsWith('/documents/'));
  return ok ? { id: res.json('id'), url: BASES[side] + url } : null;
}

function read(doc, phase) {
  const res = http.get(doc.url, params('getDocument', phase, full(phase)));
  return record(res, 'getDocument', phase, 200, (b) => b.includes(`"id":"${doc.id}"`) && b.includes(`"kind":"${KIND}"`));
}

function replace(doc, i, phase) {
  const res = http.put(doc.url, body(i + 1), params('replaceDocument', phase, full(phase), HEADERS));
  return record(res, 'replaceDocument', phase, 200, (b) => b.includes(`"id":"${doc.id}"`));
}

function remove(doc, phase) {
  // 204: no body to read.
  const res = http.del(doc.url, null, params('deleteDocument', phase, false));
  return record(res, 'deleteDocument', phase, 204);
}

/** The paper's protocol: COUNT of each operation, one operation after the other. */
export function sequential() {
  const docs = [];
  for (let i = 0; i < COUNT; i++) docs.push(create(i, 'measure'));
  for (const doc of docs)
    if (doc === null) skipped('getDocument', 'measure');
    else read(doc, 'measure');
  docs.forEach((doc, i) => (doc === null ? skipped('replaceDocument', 'measure') : replace(doc, i, 'measure')));
  for (const doc of docs)
    if (doc === null) skipped('deleteDocument', 'measure');
    else remove(doc, 'measure');
}

/**
 * One document's life: create → read → replace → delete. Switched, the whole life goes to the
 * implementation of the slice it begins in and counts in that slice's phase (a life begun in
 * a guard is left out whole).
 */
export function loop(data) {
  const i = exec.scenario.iterationInTest;
  const aim = SWITCHED ? target(data.measureFrom) : undefined;
  const side = aim ? aim.side : 0;
  const lifePhase = aim ? aim.phase : undefined;
  const phase = () => lifePhase ?? phaseNow(data);
  const doc = create(i, phase(), side);
  if (doc === null) {
    for (const op of OPS.slice(1)) skipped(op, phase());
    return;
  }
  read(doc, phase());
  replace(doc, i, phase());
  remove(doc, phase());
}

export const handleSummary = writeSummary;
