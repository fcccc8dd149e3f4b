// The generator's floor (bench/src/execute/ceiling.ts): the cheapest request k6 can send — VUS virtual
// users looping on a plain http.get(BASE_URL/) with k6's default options, no tags, no check,
// no custom metric — against the same no-op server as noop.js, just before it. k6's CPU per
// request here, F, is what no script can go below on this machine; noop.js (the control, the
// scripts' own record()) and every case's k6 µs per request are read as multiples of it.
//
//   BASE_URL, VUS, WARMUP, DURATION, SUMMARY_PATH  as in noop.js
import http from 'k6/http';
import { env as required, windowStart, writeSummary } from './measure.js';

const env = (name, fallback) => required('floor.js', name, fallback);
const URL = `${env('BASE_URL')}/`;
const VUS = Number(env('VUS'));
const WARMUP = Number(env('WARMUP', '0'));
const DURATION = Number(env('DURATION'));

export const options = {
  scenarios: { floor: { executor: 'constant-vus', vus: VUS, duration: `${WARMUP + DURATION}s`, gracefulStop: '5s' } },
  // The measured window's count without a tag per request: the runner reads http_reqs over the
  // whole load and k6's CPU over the window; at a steady rate its count is the load's × window/total.
  summaryTrendStats: ['min', 'avg', 'med', 'p(90)', 'p(95)', 'p(99)', 'max', 'count'],
};

export function setup() {
  // loadFrom: the scenario starts right after setup (the runner estimates the window's requests from it).
  return { measureFrom: windowStart(WARMUP), loadFrom: Date.now() };
}

export default function () {
  http.get(URL);
}

export const handleSummary = writeSummary;
