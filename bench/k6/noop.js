// The generator's ceiling (bench/src/execute/ceiling.ts): VUS virtual users loop on GET BASE_URL/
// against a no-op server, through the same record() every API's script uses, so that k6's
// CPU per request here is what it spends per request in a case.
//
//   BASE_URL, VUS, WARMUP, DURATION, SUMMARY_PATH  as in the API scripts
//   WINDOWS   the measured window is cut into this many equal parts, each request named
//             after its part (w1, w2, …): their rates' spread is the machine's noise
import http from 'k6/http';
import { env as required, fullCheck, params, record, reported, SYSTEM_TAGS, TREND_STATS, windowStart, writeSummary } from './measure.js';

const env = (name, fallback) => required('noop.js', name, fallback);
const BASE_URL = env('BASE_URL');
const VUS = Number(env('VUS'));
const WARMUP = Number(env('WARMUP', '0'));
const DURATION = Number(env('DURATION'));
const WINDOWS = Number(env('WINDOWS', '1'));
const NAMES = Array.from({ length: WINDOWS }, (_, i) => `w${i + 1}`);

export const options = {
  scenarios: { noop: { executor: 'constant-vus', vus: VUS, duration: `${WARMUP + DURATION}s`, gracefulStop: '5s' } },
  thresholds: reported(NAMES),
  summaryTrendStats: TREND_STATS,
  systemTags: SYSTEM_TAGS,
};
const URL = `${BASE_URL}/`;

export function setup() {
  return { measureFrom: windowStart(WARMUP) };
}

// The part of the window a request starts in, moved on only when a part ends (the last one
// takes any overrun): a few operations per request, as in a case's script.
let part = -1;
let partEnds = -Infinity;
let name = NAMES[0];
let phase = 'warmup';
export default function (data) {
  const now = Date.now();
  if (now >= partEnds) {
    if (now < data.measureFrom) partEnds = data.measureFrom;
    else {
      phase = 'measure';
      part = Math.min(WINDOWS - 1, Math.floor(((now - data.measureFrom) / (DURATION * 1000)) * WINDOWS));
      name = NAMES[part];
      partEnds = part === WINDOWS - 1 ? Infinity : data.measureFrom + ((part + 1) * DURATION * 1000) / WINDOWS;
    }
  }
  // As a request of a case: its body read on the declared sample (measure.js fullCheck, params).
  const res = http.get(URL, params(name, phase, fullCheck(phase)));
  record(res, name, phase, 200);
}

export const handleSummary = writeSummary;
