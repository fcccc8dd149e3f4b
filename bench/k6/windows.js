// Windows of a k6 run, for two jobs that k6's end-of-test summary cannot do alone:
// response time over time (tag `tw`) and a stress test's stop conditions (tags `sw` for the
// mean, `ew` for the error rate), all counted from the start of the measured window (the
// ramp). Each window is a sub-metric named by a threshold: the over-time windows' always pass (they
// only make k6 report the window), the stop conditions' abort the test (abortOnFail) once
// their window is over. delayAbortEval counts from k6's start, before setup() (whose
// length is known only when it ran): each is set to its window's end plus the warm-up plus
// a margin for setup, so a window is judged whole, never on its first requests; a slower
// setup than the margin would judge it early by the difference. Pure: node's tests import it.

/** The VU tags for a request sent `sinceMeasureMs` after the measured window began. */
export function windowTags(sinceMeasureMs, overTimeMs, stress) {
  const tags = { tw: String(Math.floor(sinceMeasureMs / overTimeMs)) };
  if (stress) {
    tags.sw = String(Math.floor(sinceMeasureMs / (stress.failure.meanSeconds * 1000)));
    tags.ew = String(Math.floor(sinceMeasureMs / (stress.failure.errorSeconds * 1000)));
  }
  return tags;
}

/** Always-passing thresholds naming each over-time window's latency and failure rate. */
export function overTimeThresholds(windows) {
  const t = {};
  for (let k = 0; k < windows; k++) {
    t[`http_req_duration{phase:measure,tw:${k}}`] = ['max>=0'];
    t[`failed{phase:measure,tw:${k}}`] = ['rate>=0'];
  }
  return t;
}

/**
 * The stop conditions as thresholds over every window of the ramp's `seconds`: a window
 * whose requests' mean exceeds failure.meanMs, or whose failure rate exceeds
 * failure.errorRate, aborts the test, judged from `startSeconds` (the warm-up and the
 * setup margin) + its end on.
 */
export function stressThresholds(failure, seconds, startSeconds) {
  const t = {};
  const add = (metric, windowSeconds, expr) => {
    for (let k = 0; k < Math.ceil(seconds / windowSeconds); k++) {
      t[`${metric}{phase:measure,${metric === 'failed' ? 'ew' : 'sw'}:${k}}`] = [
        { threshold: expr, abortOnFail: true, delayAbortEval: `${startSeconds + (k + 1) * windowSeconds}s` },
      ];
    }
  };
  add('http_req_duration', failure.meanSeconds, `avg<=${failure.meanMs}`);
  add('failed', failure.errorSeconds, `rate<=${failure.errorRate}`);
  return t;
}
