// RFC 9457 problem details (application/problem+json) with the contract's stable types, the
// 405 route every API's paths share, and the onPreResponse step that turns every Boom error
// (Hapi's own: 404, 413, 415, bad JSON; the validation failAction's; a handler's crash) into one.

import Boom from '@hapi/boom';

import { databaseUnavailable } from './db-timeouts.js';

export const PROBLEMS = Object.freeze({
  invalidParameter: { status: 400, type: 'urn:fairbench:problem:invalid-parameter', title: 'Invalid parameter' },
  malformedBody: { status: 400, type: 'urn:fairbench:problem:malformed-body', title: 'Malformed request body' },
  invalidBody: { status: 400, type: 'urn:fairbench:problem:invalid-body', title: 'Invalid request body' },
  unauthorized: { status: 401, type: 'urn:fairbench:problem:unauthorized', title: 'Unauthorized' },
  forbidden: { status: 403, type: 'urn:fairbench:problem:forbidden', title: 'Forbidden' },
  notFound: { status: 404, type: 'urn:fairbench:problem:not-found', title: 'Not found' },
  itemNotFound: { status: 404, type: 'urn:fairbench:problem:item-not-found', title: 'Item not found' },
  methodNotAllowed: { status: 405, type: 'urn:fairbench:problem:method-not-allowed', title: 'Method not allowed' },
  conflict: { status: 409, type: 'urn:fairbench:problem:conflict', title: 'Conflict' },
  payloadTooLarge: { status: 413, type: 'urn:fairbench:problem:payload-too-large', title: 'Payload too large' },
  unsupportedMediaType: { status: 415, type: 'urn:fairbench:problem:unsupported-media-type', title: 'Unsupported media type' },
  internal: { status: 500, type: 'urn:fairbench:problem:internal', title: 'Internal server error' },
  unavailable: { status: 503, type: 'urn:fairbench:problem:unavailable', title: 'Service unavailable' },
});

const BY_STATUS = new Map([
  // A 400 that no validation step tagged comes from Hapi's payload parser: the JSON is malformed.
  [400, PROBLEMS.malformedBody],
  // @hapi/jwt's refusals (no, malformed, forged, expired token) and the scope check's.
  [401, PROBLEMS.unauthorized],
  [403, PROBLEMS.forbidden],
  [404, PROBLEMS.notFound],
  [405, PROBLEMS.methodNotAllowed],
  [413, PROBLEMS.payloadTooLarge],
  [415, PROBLEMS.unsupportedMediaType],
]);

// The headers of a Boom error its problem document keeps (a 405's Allow, a busy 503's Retry-After).
const KEPT_HEADERS = ['Allow', 'Retry-After'];

/** A Boom error that renders as `problem` (one of PROBLEMS) with `detail` and `headers`. */
export function problemError(problem, detail, headers = {}) {
  const error = Boom.boomify(new Error(detail), { statusCode: problem.status, data: { problem } });
  Object.assign(error.output.headers, headers);
  return error;
}

/**
 * The 405 route of a known path (spread it with the path): Hapi matches method '*' only for
 * the methods no other route of that path serves. The body is not read first.
 */
export const methodNotAllowed = (allow) => ({
  method: '*',
  options: { payload: { output: 'stream', parse: false } },
  handler(request) {
    throw problemError(PROBLEMS.methodNotAllowed, `${request.method.toUpperCase()} is not allowed here; allowed: ${allow}`, { Allow: allow });
  },
});

/** The route option `validate.failAction`: joi's message becomes the detail of a 400 problem. */
export function validationFailed(request, h, err) {
  const source = err.output.payload.validation?.source;
  throw problemError(source === 'params' || source === 'query' ? PROBLEMS.invalidParameter : PROBLEMS.invalidBody, err.message);
}

/** The single stderr line written for every unexpected (500-class) error. */
export function logInternalError(where, err) {
  const line = { level: 'error', time: new Date().toISOString(), where, error: err instanceof Error ? (err.stack ?? String(err)) : String(err) };
  process.stderr.write(`${JSON.stringify(line)}\n`);
}

// The payload parser's (@hapi/bourne, protoAction 'error') refusal of a `__proto__` member: the
// JSON is well formed, so this is an invalid body, not a malformed one. (joi would never see the
// member: it clones the object first, and the clone turns the member into a prototype.)
const PROTOTYPE_REFUSAL = 'Object contains forbidden prototype property';
const refusedPrototypeMember = (err) => err.output?.statusCode === 400 && err.data instanceof SyntaxError && err.data.message === PROTOTYPE_REFUSAL;

/**
 * The problem (one of PROBLEMS) and detail an error stands for: its own, its status's, a
 * database that did not answer (503), or, for anything else, a logged 500 without internals.
 */
export function problemOf(err, where) {
  if (refusedPrototypeMember(err)) return { problem: PROBLEMS.invalidBody, detail: 'the body has a member named __proto__, which the schema does not allow' };
  const problem = err.data?.problem ?? BY_STATUS.get(err.output?.statusCode);
  if (problem !== undefined) return { problem, detail: err.message };
  // A driver timeout (a stalled or restarting database): the client may retry.
  if (databaseUnavailable(err)) return { problem: PROBLEMS.unavailable, detail: 'the database did not answer in time; retry later' };
  logInternalError(where, err);
  return { problem: PROBLEMS.internal, detail: undefined };
}

/** The problem+json response; every 401 names the Bearer scheme (RFC 6750), whatever refused the request. */
export function problemReply(h, { problem, detail }, headers = {}) {
  const body = { type: problem.type, title: problem.title, status: problem.status };
  if (detail) body.detail = detail;
  const answer = h.response(body).code(problem.status).type('application/problem+json');
  for (const name of KEPT_HEADERS) if (headers[name] !== undefined) answer.header(name, headers[name]);
  if (problem === PROBLEMS.unauthorized) answer.header('WWW-Authenticate', 'Bearer');
  return answer;
}

/** onPreResponse: a Boom error → its problem document (other responses pass through). */
export function problemResponse(request, h) {
  const response = request.response;
  if (!response.isBoom) return h.continue;
  return problemReply(h, problemOf(response, `${request.method.toUpperCase()} ${request.path}`), response.output.headers);
}
