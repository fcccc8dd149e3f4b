// The generator's ceiling (bench/src/ceiling.ts): VUS virtual users loop on GET BASE_URL/
// against a no-op server, through the same record() every API's script uses, so that k6's
// CPU per request here is what it spends per request in a case.
//
//   BASE_URL, VUS, WARMUP, DURATION, SUMMARY_PATH  as in the API scripts
//   WINDOWS   the measured window is cut into this many equal parts, each request named
//             after its part (w1, w2, …): their rates' spread is the machine's noise
import http from 'k6/http';
import { env as required, record, reported, TREND_STATS, windowStart, writeSummary } from './measure.js';

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
};

export function setup() {
  return { measureFrom: windowStart(WARMUP) };
}

export default function (data) {
  const now = Date.now();
  const phase = now >= data.measureFrom ? 'measure' : 'warmup';
  // The part of the window the request starts in (the last one takes any overrun).
  const name = NAMES[Math.min(WINDOWS - 1, Math.max(0, Math.floor(((now - data.measureFrom) / (DURATION * 1000)) * WINDOWS)))];
  const res = http.get(`${BASE_URL}/`, { tags: { name, phase } });
  record(res, name, phase, 200);
}

export const handleSummary = writeSummary;
