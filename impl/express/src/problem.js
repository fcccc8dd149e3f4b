// RFC 9457 problem details: application/problem+json with stable type URIs; the
// 405 and 404 middleware and the app's error handler, which every API shares.
import { databaseUnavailable } from './db-unavailable.js';

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

/** Sends `problem` (one of PROBLEMS) with an optional human-readable detail. */
export function sendProblem(res, problem, detail) {
  const body = { type: problem.type, title: problem.title, status: problem.status };
  if (detail !== undefined) body.detail = detail;
  // res.json keeps a Content-Type that is already set (Express appends charset=utf-8).
  res.status(problem.status).set('Content-Type', 'application/problem+json').json(body);
}

/** Middleware for a known path hit with a method it does not serve. */
export function methodNotAllowed(allow) {
  return (req, res) => {
    res.set('Allow', allow);
    sendProblem(res, PROBLEMS.methodNotAllowed, `${req.method} is not allowed here; allowed: ${allow}`);
  };
}

/** Catch-all for unknown paths. */
export function notFound(req, res) {
  sendProblem(res, PROBLEMS.notFound, 'no such resource');
}

/** The single stderr line written for every unexpected (500-class) error. */
export function logInternalError(where, err) {
  const line = {
    level: 'error',
    time: new Date().toISOString(),
    where,
    error: err instanceof Error ? (err.stack ?? String(err)) : String(err),
  };
  process.stderr.write(`${JSON.stringify(line)}\n`);
}

// Maps errors raised before a handler could answer (body-parser via json-body.js,
// the router's parameter decoding) to problems; anything else is a logged 500.
// An API may map its own first (the forum names the undecodable parameter).
function clientProblem(err) {
  const status = err.status ?? err.statusCode;
  if (err.type === 'entity.too.large' || status === 413) {
    return [PROBLEMS.payloadTooLarge, `request body is larger than ${err.limit ?? 65536} bytes`];
  }
  if (status === 415) return [PROBLEMS.unsupportedMediaType, err.message];
  if (status === 400 && err instanceof URIError) return [PROBLEMS.invalidParameter, 'a path parameter is not valid percent-encoding'];
  if (err.type === 'entity.parse.failed') return [PROBLEMS.malformedBody, 'request body is not valid JSON'];
  if (status === 400) return [PROBLEMS.malformedBody, err.message];
  return null;
}

/** The app's error middleware, last in the chain: every error becomes a problem. */
export function errorHandler(err, req, res, next) {
  const mapped = clientProblem(err);
  if (mapped && !res.headersSent) return sendProblem(res, ...mapped);
  if (databaseUnavailable(err) && !res.headersSent) return sendProblem(res, PROBLEMS.unavailable, `the database did not answer in time (${err.name}); retry later`);
  logInternalError(`${req.method} ${req.originalUrl}`, err);
  if (res.headersSent) {
    // Too late for a problem document: drop the connection.
    req.socket.destroy();
    return;
  }
  sendProblem(res, PROBLEMS.internal);
}
