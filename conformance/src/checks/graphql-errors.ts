// Expectations on GraphQL error responses (see bad-input.yaml's header).
import type { Expectation } from '../case-files.ts';
import type { SuiteContext } from '../context.ts';
import { describe, type HttpResponse } from '../http.ts';
import { errorListProblems, graphqlResponseProblems } from '../spec/graphql.ts';

type GraphqlBody = { data?: Record<string, unknown> | null; errors?: { path?: unknown; extensions?: { code?: unknown } }[] };

export function graphqlExpectationChecks(
  ctx: SuiteContext,
  expect: Expectation,
  res: HttpResponse,
  request: { query: string; variables?: Record<string, unknown> } | undefined,
): string[] {
  const body = res.json as GraphqlBody | undefined;
  if (res.mediaType !== 'application/json' || body === undefined || body === null || typeof body !== 'object') {
    return [`expected a JSON GraphQL response, got ${describe(res)}`];
  }
  if (expect.graphqlRequestError) {
    const failures = res.status === 400 ? [] : [`expected HTTP 400 for a request error, got ${describe(res)}`];
    failures.push(...errorListProblems(body.errors, true));
    if ('data' in body) failures.push('a request error must not have a "data" key');
    return failures;
  }
  if (res.status !== 200) return [`expected HTTP 200, got ${describe(res)}`];
  const failures = request === undefined ? [] : graphqlResponseProblems(ctx.graphqlSchema, request.query, request.variables, body);
  if (expect.graphqlOk) {
    if (body.errors !== undefined) failures.push(`unexpected errors: ${JSON.stringify(body.errors).slice(0, 300)}`);
    if (body.data === null || body.data === undefined) failures.push('no data');
    return failures;
  }
  const field = expect.graphqlFieldError!;
  if (body.data?.[field] !== null) failures.push(`data.${field} should be null, got ${JSON.stringify(body.data?.[field])?.slice(0, 200)}`);
  const error = body.errors?.find((e) => JSON.stringify(e.path) === JSON.stringify([field]));
  if (error === undefined) failures.push(`no error with path ["${field}"]: ${JSON.stringify(body.errors)?.slice(0, 300)}`);
  else if (error.extensions?.code !== 'BAD_USER_INPUT') {
    failures.push(`error extensions.code is ${JSON.stringify(error.extensions?.code)}, expected "BAD_USER_INPUT"`);
  }
  return failures;
}
