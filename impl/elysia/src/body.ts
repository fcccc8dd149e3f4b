// The JSON body parser of the routes (Elysia's `parse` hook): application/json only (415, also
// when the Content-Type is missing), at most the operation's limit (413), valid JSON (400
// malformed-body). Elysia's own parser would read any size and take text/plain as a string.
import { PROBLEMS, ProblemError } from './problem.ts';

const JSON_MEDIA_TYPE = /^application\/json[\t ]*(;|$)/i;

interface JsonBodyOptions {
  /** The largest body in bytes. */
  readonly limit: number;
  /** An empty body is null (then the schema refuses it: 400 invalid-body) rather than malformed JSON. */
  readonly emptyIsNull?: boolean;
}

/** A parse hook for one operation's bodies. */
export function jsonBody({ limit, emptyIsNull = false }: JsonBodyOptions) {
  const tooLarge = () => new ProblemError(PROBLEMS.payloadTooLarge, `request body is larger than ${limit} bytes`);
  return async ({ request }: { request: Request }): Promise<unknown> => {
    const type = request.headers.get('content-type');
    if (type === null || !JSON_MEDIA_TYPE.test(type.trim())) throw new ProblemError(PROBLEMS.unsupportedMediaType, 'the body must be application/json');
    if (Number(request.headers.get('content-length') ?? 0) > limit) throw tooLarge();
    const bytes = await request.arrayBuffer();
    if (bytes.byteLength > limit) throw tooLarge();
    // null, not undefined: Elysia would hand an undefined body on to its own parser.
    if (bytes.byteLength === 0 && emptyIsNull) return null;
    try {
      return JSON.parse(new TextDecoder().decode(bytes));
    } catch {
      throw new ProblemError(PROBLEMS.malformedBody, 'request body is not valid JSON');
    }
  };
}

/** The tpcc operations' bodies: at most 16 KiB. */
export const BODY_LIMIT = 16 * 1024;
export const parseJsonBody = jsonBody({ limit: BODY_LIMIT });
