// Bad input: the specified 4xx, never a 5xx; afterwards the process is alive,
// /health answers and the database digest is unchanged.
import type { BadInputCase, BadInputRequest, Expectation, GraphqlRequestSpec } from '../case-files.ts';
import { expandEach } from '../case-files.ts';
import { graphqlExpectationChecks } from '../checks/graphql-errors.ts';
import { problemChecks, refusedByServer } from '../checks/problem.ts';
import { fromTheApp, serverTimingProblems } from '../checks/server-timing.ts';
import type { SuiteContext } from '../context.ts';
import { describe, latin1Bytes, send, type HttpRequest, type HttpResponse } from '../http.ts';
import { runCase, type CaseResult } from '../outcome.ts';

export async function runBadInput(ctx: SuiteContext, cases: readonly BadInputCase[]): Promise<CaseResult[]> {
  const results: CaseResult[] = [];
  for (const c of cases) {
    for (const { id, value } of expandEach(c)) {
      results.push(
        await runCase(`bad-input/${id}`, 'bad-input', async () => {
          const before = await ctx.store.digest();
          const { req, graphql } = buildRequest(c, value);
          const res = await send(ctx.baseUrl, req);
          const failures = res.status >= 500 ? [`server error: ${describe(res)}`] : checkExpectation(ctx, c.expect, req, res, graphql);
          if (fromTheApp(res)) failures.push(...serverTimingProblems(res));
          failures.push(...(await afterwards(ctx, before)));
          return failures;
        }),
      );
    }
  }
  return results;
}

const fill = (text: string, value: string | undefined, encode: boolean): string =>
  value === undefined ? text : text.replaceAll('{value}', encode ? encodeURIComponent(value) : value);

/** The GraphQL request a case describes, for the response checks that replay it. */
interface SentGraphql {
  readonly query: string;
  readonly variables?: Record<string, unknown>;
}

function buildRequest(c: BadInputCase, value: string | undefined): { req: HttpRequest; graphql?: SentGraphql } {
  return c.graphql !== undefined ? graphqlRequest(c.graphql, value) : { req: httpRequest(c.request!, value) };
}

function graphqlRequest(spec: GraphqlRequestSpec, value: string | undefined): { req: HttpRequest; graphql?: SentGraphql } {
  const body = graphqlBody(spec, value);
  const req = { method: 'POST', path: '/graphql', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
  if (typeof body.query !== 'string') return { req };
  return { req, graphql: { query: body.query, ...(spec.variables ? { variables: { ...spec.variables } } : {}) } };
}

function httpRequest(r: BadInputRequest, value: string | undefined): HttpRequest {
  let method = r.method ?? 'GET';
  let path = r.path ?? '/';
  if (r.line !== undefined) [method = 'GET', path = '/'] = fill(r.line, value, false).split(' ');
  else path = fill(path, value, r.raw !== true);
  // An oversized body is a valid query padded with ignored whitespace: only its size is wrong.
  const big = r.oversizedGraphql;
  // In a raw body, {value} is the value as written (a JSON fragment: 4, "x", [1]).
  let body: string | Uint8Array | undefined =
    big === undefined
      ? r.body === undefined
        ? undefined
        : encoded(fill(r.body, value, false), r.bodyEncoding)
      : JSON.stringify({ query: `${big.query}${' '.repeat(big.kib * 1024)}` });
  let headers = r.headers;
  // Generated bodies: a padded object (only its size is wrong), nested arrays (only their depth).
  if (r.oversizedJsonKiB !== undefined) body = JSON.stringify({ padding: 'x'.repeat(r.oversizedJsonKiB * 1024) });
  if (r.nestedArrays !== undefined) body = `${'['.repeat(r.nestedArrays)}${']'.repeat(r.nestedArrays)}`;
  if (r.oversizedJsonKiB !== undefined || r.nestedArrays !== undefined) headers = { 'content-type': 'application/json', ...headers };
  return { method, path, ...(headers ? { headers } : {}), ...(body !== undefined ? { body } : {}), ...(r.chunked === true ? { chunked: true } : {}) };
}

/** A raw body as the case wants it sent: UTF-8 text, or (latin1) one byte per character. */
const encoded = (body: string, encoding: 'latin1' | undefined): string | Uint8Array => (encoding === 'latin1' ? latin1Bytes(body) : body);

function graphqlBody(spec: GraphqlRequestSpec, value: string | undefined): Record<string, unknown> {
  if (spec.body !== undefined) {
    // In a raw body, the string "{value}" stands for the value written as JSON (e.g. [1] or "{}").
    const json = JSON.stringify(spec.body);
    return JSON.parse(value === undefined ? json : json.replaceAll('"{value}"', value)) as Record<string, unknown>;
  }
  return {
    query: fill(spec.query ?? '', value, false),
    ...(spec.variables !== undefined ? { variables: spec.variables } : {}),
    ...(spec.operationName !== undefined ? { operationName: spec.operationName } : {}),
  };
}

function checkExpectation(ctx: SuiteContext, expect: Expectation, req: HttpRequest, res: HttpResponse, graphql: SentGraphql | undefined): string[] {
  if (refusedByServer(expect, res)) return [];
  if (expect.problem !== undefined) {
    const failures = problemChecks(ctx, res, expect.status ?? 400, expect.problem);
    // Where the path is one of the spec's, the response must be one the spec declares.
    if (failures.length === 0) failures.push(...(ctx.openapi.problems(req, res) ?? []));
    return failures;
  }
  return graphqlExpectationChecks(ctx, expect, res, graphql);
}

async function afterwards(ctx: SuiteContext, digestBefore: string): Promise<string[]> {
  const failures: string[] = [];
  if (!ctx.alive()) return ['the implementation process exited'];
  try {
    const health = await send(ctx.baseUrl, { method: 'GET', path: '/health' });
    if (health.status !== 200) failures.push(`/health answers ${health.status} afterwards`);
  } catch (error) {
    failures.push(`/health does not answer afterwards: ${String(error)}`);
  }
  if ((await ctx.store.digest()) !== digestBefore) failures.push('the database changed (table checksums differ)');
  return failures;
}
