// The JSON body parser of the tpcc routes (Elysia's `parse` hook): application/json only
// (415, also when the Content-Type is missing), at most 16 KiB (413), valid JSON (400
// malformed-body). Elysia's own parser would read any size and take text/plain as a string.
import { PROBLEMS, ProblemError } from './problem.ts';

const JSON_MEDIA_TYPE = /^application\/json[\t ]*(;|$)/i;
export const BODY_LIMIT = 16 * 1024;

export async function parseJsonBody({ request }: { request: Request }): Promise<unknown> {
  const type = request.headers.get('content-type');
  if (type === null || !JSON_MEDIA_TYPE.test(type.trim())) throw new ProblemError(PROBLEMS.unsupportedMediaType, 'the body must be application/json');
  const declared = Number(request.headers.get('content-length') ?? 0);
  if (declared > BODY_LIMIT) throw new ProblemError(PROBLEMS.payloadTooLarge, `request body is larger than ${BODY_LIMIT} bytes`);
  const bytes = await request.arrayBuffer();
  if (bytes.byteLength > BODY_LIMIT) throw new ProblemError(PROBLEMS.payloadTooLarge, `request body is larger than ${BODY_LIMIT} bytes`);
  try {
    return JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    throw new ProblemError(PROBLEMS.malformedBody, 'request body is not valid JSON');
  }
}
