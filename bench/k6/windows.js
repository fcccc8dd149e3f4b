// Windows of a k6 run, for two jobs that k6's end-of-test summary cannot do alone:
// response time over time (tag `tw`: the window after the measured window began) and a
// stress test's stop conditions (tags `sw` and `ew`: windows of the test-run clock, the
// clock of k6's own delayAbortEval). Each window is a sub-metric named by a threshold:
// the timeline's always pass (they only make k6 report the window), the stop conditions'
// abort the test (abortOnFail) once their window is over (delayAbortEval = its end), so
// a window is judged whole, never on its first requests. Pure: node's tests import it too.

/** The VU tags for a request sent `sinceMeasureMs` after the measured window began, at `testRunMs` of k6's clock. */
export function windowTags(sinceMeasureMs, testRunMs, timelineMs, stress) {
  const tags = { tw: String(Math.floor(sinceMeasureMs / timelineMs)) };
  if (stress) {
    tags.sw = String(Math.floor(testRunMs / (stress.failure.meanSeconds * 1000)));
    tags.ew = String(Math.floor(testRunMs / (stress.failure.errorSeconds * 1000)));
  }
  return tags;
}

/** Always-passing thresholds naming each timeline window's latency and failure rate. */
export function timelineThresholds(windows) {
  const t = {};
  for (let k = 0; k < windows; k++) {
    t[`http_req_duration{phase:measure,tw:${k}}`] = ['max>=0'];
    t[`failed{phase:measure,tw:${k}}`] = ['rate>=0'];
  }
  return t;
}

/**
 * The stop conditions as thresholds over every window the test-run clock can reach in
 * `seconds` (setup, warm-up and the stress ramp together): a window whose requests' mean
 * exceeds failure.meanMs, or whose failure rate exceeds failure.errorRate, aborts the test.
 */
export function stressThresholds(failure, seconds) {
  const t = {};
  const add = (metric, windowSeconds, expr) => {
    for (let k = 0; k < Math.ceil(seconds / windowSeconds); k++) {
      t[`${metric}{phase:measure,${metric === 'failed' ? 'ew' : 'sw'}:${k}}`] = [{ threshold: expr, abortOnFail: true, delayAbortEval: `${(k + 1) * windowSeconds}s` }];
    }
  };
  add('http_req_duration', failure.meanSeconds, `avg<=${failure.meanMs}`);
  add('failed', failure.errorSeconds, `rate<=${failure.errorRate}`);
  return t;
}
