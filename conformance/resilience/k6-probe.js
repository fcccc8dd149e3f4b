// The overload scenario's load (make resilience): the API's probe request at a fixed arrival
// rate (RATE per second) or from VUS closed-loop users, for DURATION seconds, to BASE_URL
// (127.0.0.1 only). The request comes as PROBE_METHOD, PROBE_PATH, PROBE_BODY (JSON text, may be
// empty) and PROBE_AUTH (a bearer token, may be empty).
import http from 'k6/http';

const rate = Number(__ENV.RATE || 0);
const duration = `${__ENV.DURATION}s`;
export const options = {
  discardResponseBodies: true,
  summaryTrendStats: ['p(95)', 'max', 'count'],
  scenarios: {
    probe:
      rate > 0
        ? { executor: 'constant-arrival-rate', rate, timeUnit: '1s', duration, preAllocatedVUs: Math.min(rate, 200), maxVUs: Number(__ENV.MAX_VUS || 300) }
        : { executor: 'constant-vus', vus: Number(__ENV.VUS || 16), duration },
  },
};

const headers = { 'content-type': 'application/json' };
if (__ENV.PROBE_AUTH) headers.authorization = `Bearer ${__ENV.PROBE_AUTH}`;
const params = { headers, timeout: '10s' };
export default function () {
  http.request(__ENV.PROBE_METHOD, `${__ENV.BASE_URL}${__ENV.PROBE_PATH}`, __ENV.PROBE_BODY || null, params);
}

export function handleSummary(data) {
  const m = data.metrics;
  const out = {
    requests: m.http_reqs ? m.http_reqs.values.count : 0,
    rate: m.http_reqs ? m.http_reqs.values.rate : 0,
    p95Ms: m.http_req_duration ? m.http_req_duration.values['p(95)'] : null,
    failedRate: m.http_req_failed ? m.http_req_failed.values.rate : null,
    dropped: m.dropped_iterations ? m.dropped_iterations.values.count : 0,
  };
  return { [__ENV.SUMMARY_PATH]: JSON.stringify(out) };
}
