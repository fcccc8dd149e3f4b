// The calibration A/B (bench/src/calibration/ab.ts): VUS virtual users loop on GET / against
// two calibration servers, A and B, in short alternating slices: the measured window is cut
// into ORDER's length of SLICE-second slices, slice i going to ORDER[i] ('A' or 'B'), each
// request named after the slice it starts in (s1, s2, …). One k6 process for all of them,
// so no slice pays a process start, and A and B never run at once (no duet: fair on 2 cores).
//
//   BASE_A, BASE_B  the two servers
//   ORDER           e.g. ABBAAB…: the runner randomizes each pair's order
//   SLICE           seconds per slice
//   GUARD           seconds at each slice's start whose requests are not counted (phase
//                   'guard'): the switch's transient (the woken server's cold caches, the
//                   connections' first requests) stays out of the slice's figures
//   VUS, WARMUP, SUMMARY_PATH  as in the API scripts (the warm-up alternates every half second)
import http from 'k6/http';
import { env as required, record, reported, TREND_STATS, windowStart, writeSummary } from './measure.js';

const env = (name, fallback) => required('calibration.js', name, fallback);
const BASE = { A: env('BASE_A'), B: env('BASE_B') };
const ORDER = env('ORDER');
const SLICE = Number(env('SLICE'));
const VUS = Number(env('VUS'));
const WARMUP = Number(env('WARMUP', '0'));
const GUARD = Number(env('GUARD', '0'));
const NAMES = Array.from({ length: ORDER.length }, (_, i) => `s${i + 1}`);

export const options = {
  scenarios: { calibration: { executor: 'constant-vus', vus: VUS, duration: `${WARMUP + ORDER.length * SLICE}s`, gracefulStop: '5s' } },
  thresholds: reported(NAMES),
  summaryTrendStats: TREND_STATS,
};

export function setup() {
  return { measureFrom: windowStart(WARMUP) };
}

export default function (data) {
  const now = Date.now();
  if (now < data.measureFrom) {
    const side = Math.floor(now / 500) % 2 === 0 ? 'A' : 'B';
    record(http.get(`${BASE[side]}/`, { tags: { name: 'warmup', phase: 'warmup' } }), 'warmup', 'warmup', 200);
    return;
  }
  const i = Math.min(ORDER.length - 1, Math.floor((now - data.measureFrom) / (SLICE * 1000)));
  const phase = now - data.measureFrom - i * SLICE * 1000 < GUARD * 1000 ? 'guard' : 'measure';
  const res = http.get(`${BASE[ORDER[i]]}/`, { tags: { name: NAMES[i], phase } });
  record(res, NAMES[i], phase, 200);
}

export const handleSummary = writeSummary;
