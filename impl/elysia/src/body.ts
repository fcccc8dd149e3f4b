// The JSON body parser of the routes (Elysia's `parse` hook): application/json only (415, also
// when the Content-Type is missing), at most the operation's limit (413), valid JSON in UTF-8
// (400 malformed-body). Elysia's own parser would read any size and take text/plain as a string.
import { PROBLEMS, ProblemError } from './problem.ts';

const JSON_MEDIA_TYPE = /^application\/json[\t ]*(;|$)/i;

interface JsonBodyOptions {
  /** The largest body in bytes. */
  readonly limit: number;
  /** An empty body is null (then the schema refuses it: 400 invalid-body) rather than malformed JSON. */
  readonly emptyIsNull?: boolean;
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

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
    let text: string;
    let value: unknown;
    try {
      // fatal: bytes that are not UTF-8 are not JSON (RFC 8259 §8.1); the default decoder would
      // replace them with U+FFFD and parse the rest (issue 51).
      text = UTF8.decode(bytes);
      value = JSON.parse(text);
    } catch {
      throw new ProblemError(PROBLEMS.malformedBody, 'request body is not valid JSON');
    }
    // Elysia's validation error serialises the value recursively: a deeply nested body would
    // overflow the stack there (a 500). No schema nests that deep, so it is an invalid body.
    if (nestedDeeperThan(text, MAX_DEPTH)) throw new ProblemError(PROBLEMS.invalidBody, `the body nests arrays or objects deeper than ${MAX_DEPTH} levels`);
    return value;
  };
}

/** Deeper than any body the operations take (the deepest, a documents table, is 3). */
export const MAX_DEPTH = 64;

/** Whether valid JSON text nests arrays and objects deeper than `max` (a scan, no recursion). */
export function nestedDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // the escaped character cannot end the string
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

/** The tpcc operations' bodies: at most 16 KiB. */
export const BODY_LIMIT = 16 * 1024;
export const parseJsonBody = jsonBody({ limit: BODY_LIMIT });
