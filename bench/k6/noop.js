// The generator's ceiling (bench/src/ceiling.ts): VUS virtual users loop on GET BASE_URL/
// against a no-op server, through the same record() every API's script uses, so that k6's
// CPU per request here is what it spends per request in a case.
//
//   BASE_URL, VUS, WARMUP, DURATION, SUMMARY_PATH  as in the API scripts
import http from 'k6/http';
import { env as required, record, reported, TREND_STATS, windowStart, writeSummary } from './measure.js';

const env = (name, fallback) => required('noop.js', name, fallback);
const BASE_URL = env('BASE_URL');
const VUS = Number(env('VUS'));
const WARMUP = Number(env('WARMUP', '0'));
const DURATION = Number(env('DURATION'));

export const options = {
  scenarios: { noop: { executor: 'constant-vus', vus: VUS, duration: `${WARMUP + DURATION}s`, gracefulStop: '5s' } },
  thresholds: reported(['noop']),
  summaryTrendStats: TREND_STATS,
};

export function setup() {
  return { measureFrom: windowStart(WARMUP) };
}

export default function (data) {
  const phase = Date.now() >= data.measureFrom ? 'measure' : 'warmup';
  const res = http.get(`${BASE_URL}/`, { tags: { name: 'noop', phase } });
  record(res, 'noop', phase, 200);
}

export const handleSummary = writeSummary;
