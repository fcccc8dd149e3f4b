// RFC 9457 problem+json responses with the spec's stable type URIs.
import type { SuiteContext } from '../context.ts';
import { describe, type HttpResponse } from '../http.ts';

export const PROBLEM_TYPE_PREFIX = 'urn:fairbench:problem:';

export function problemChecks(ctx: SuiteContext, res: HttpResponse, status: number, type: string): string[] {
  if (res.status !== status || res.mediaType !== 'application/problem+json') {
    return [`expected ${status} application/problem+json (${type}), got ${describe(res)}`];
  }
  const failures = ctx.openapi.problemSchemaProblems(res.json);
  const body = (res.json ?? {}) as { type?: unknown; status?: unknown };
  if (body.type !== PROBLEM_TYPE_PREFIX + type) failures.push(`problem type is ${JSON.stringify(body.type)}, expected "${PROBLEM_TYPE_PREFIX}${type}"`);
  if (body.status !== status) failures.push(`problem status member is ${JSON.stringify(body.status)}, expected ${status}`);
  return failures;
}

/** An answer with the expected status and no body, where the case allows the HTTP server to refuse the request before the application (`refusedByServer`). */
export function refusedByServer(expect: { readonly status?: number; readonly refusedByServer?: true }, res: HttpResponse): boolean {
  return expect.refusedByServer === true && res.status === (expect.status ?? 400) && res.text === '';
}
