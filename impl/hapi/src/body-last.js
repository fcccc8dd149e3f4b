// A body checked after the route's prerequisites. Hapi's lifecycle reads, parses and
// validates a payload before the route's `pre` methods run, but the sports rules answer the
// path's existence (404) and the caller's permission (403) before any fault of the body
// (415, 413, malformed or invalid 400). With these, a route keeps Hapi's own parser and its
// joi `validate.payload`, and only their error waits: `payload.failAction` and
// `validate.failAction` keep it in `request.app`, and the `bodyChecked` step, the last
// of the route's `pre`, raises it. Path and query faults are still raised at once (400).

import { PROBLEMS, problemError, validationFailed } from './problem.js';

/** `payload.failAction`: Hapi's 415, 413 or malformed-JSON 400 is kept for `bodyChecked`. */
export function keepPayloadError(request, h, err) {
  request.app.bodyError ??= err;
  return h.continue;
}

/** `validate.failAction`: a params or query fault is a 400 now; the body's waits (after a parse error, which comes first). */
export function keepBodyInvalid(request, h, err) {
  if (err.output.payload.validation?.source !== 'payload') return validationFailed(request, h, err);
  request.app.bodyError ??= problemError(PROBLEMS.invalidBody, err.message);
  return h.continue;
}

/** The last `pre` step of such a route: the body's kept fault, if any. */
export function bodyChecked(request, h) {
  if (request.app.bodyError !== undefined) throw request.app.bodyError;
  return h.continue;
}
