// Bytes that are not UTF-8 are not JSON (RFC 8259 §8.1): a 400 malformed-body. Hapi's parser
// (subtext) decodes a JSON payload with payload.toString('utf8'), which replaces such bytes with
// U+FFFD, and parses the rest: `{"w_id":"\xff"}` became a wrong-typed member (invalid-body), a
// name of such bytes a name of U+FFFD (issue 51). It offers no hook between the bytes and the
// parse, so the bytes are watched as Hapi reads them (the request's 'peek' events) and checked
// once they are all read (onPostAuth: after the payload, before its validation).

import { isUtf8 } from 'node:buffer';

import { keepPayloadError } from './body-last.js';
import { PROBLEMS, problemError } from './problem.js';

const CHUNKS = Symbol('payload bytes');

/** onPreAuth: a route that parses its payload keeps the bytes it reads. */
export function watchPayloadBytes(request, h) {
  if (request.route.settings.payload?.parse === true) {
    const chunks = [];
    request.plugins[CHUNKS] = chunks;
    request.events.on('peek', (chunk) => chunks.push(chunk));
  }
  return h.continue;
}

/** onPostAuth: a payload that is not UTF-8 is malformed (kept for later where the route defers body faults). */
export function requireUtf8Payload(request, h) {
  const chunks = request.plugins[CHUNKS];
  if (chunks === undefined || chunks.length === 0 || isUtf8(Buffer.concat(chunks))) return h.continue;
  const error = problemError(PROBLEMS.malformedBody, 'the request body is not UTF-8, so not JSON');
  if (request.route.settings.payload.failAction === keepPayloadError) {
    request.app.bodyError ??= error;
    return h.continue;
  }
  throw error;
}
