// RFC 9457 problem details (application/problem+json) with the contract's stable types, and
// the errors the app raises before a handler runs (media type, size) or that handlers raise.

export const PROBLEMS = {
  invalidBody: { status: 400, type: 'urn:fairbench:problem:invalid-body', title: 'Invalid request body' },
  invalidParameter: { status: 400, type: 'urn:fairbench:problem:invalid-parameter', title: 'Invalid parameter' },
  malformedBody: { status: 400, type: 'urn:fairbench:problem:malformed-body', title: 'Malformed request body' },
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
} as const;

export type ProblemKind = (typeof PROBLEMS)[keyof typeof PROBLEMS];

/** An error that is answered as a problem (thrown anywhere in a request's lifecycle). */
export class ProblemError extends Error {
  readonly problem: ProblemKind;
  readonly headers: Record<string, string>;
  constructor(problem: ProblemKind, detail: string, headers: Record<string, string> = {}) {
    super(detail);
    this.problem = problem;
    this.headers = headers;
  }
}

export function problemResponse(problem: ProblemKind, detail: string | undefined, headers: Record<string, string>): Response {
  const body = { type: problem.type, title: problem.title, status: problem.status, ...(detail === undefined ? {} : { detail }) };
  return new Response(JSON.stringify(body), { status: problem.status, headers: { ...headers, 'content-type': 'application/problem+json' } });
}

/** The single stderr line written for every unexpected (500-class) error. */
export function logInternalError(where: string, err: unknown): void {
  const error = err instanceof Error ? (err.stack ?? String(err)) : String(err);
  process.stderr.write(`${JSON.stringify({ level: 'error', time: new Date().toISOString(), where, error })}\n`);
}

/** The handler of a known path hit with a method it does not serve. */
export function methodNotAllowed(allow: string) {
  return ({ request }: { request: Request }): never => {
    throw new ProblemError(PROBLEMS.methodNotAllowed, `${request.method} is not allowed here; allowed: ${allow}`, { allow });
  };
}
