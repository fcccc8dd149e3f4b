// Asks one question over REST and over GraphQL and checks both answers against
// the oracle, the spec, and each other.
import { isDeepStrictEqual } from 'node:util';
import type { AskFixture } from '../api-module.ts';
import type { Ask, OperationsFile } from '../case-files.ts';
import type { SuiteContext } from '../context.ts';
import { describe, postGraphql, send, type HttpRequest } from '../http.ts';
import { readableDiff } from '../outcome.ts';
import { graphqlResponseProblems } from '../spec/graphql.ts';
import { problemChecks } from './problem.ts';
import { serverTimingProblems } from './server-timing.ts';

export async function askBoth(ctx: SuiteContext, fixture: AskFixture, operations: OperationsFile, ask: Ask): Promise<string[]> {
  const operation = operations.operations[ask.operation];
  if (operation === undefined) return [`unknown operation '${ask.operation}' in the case file`];
  const expected = fixture.oracle.answer(ask.operation, ask.args);
  const label = `${ask.operation}(${Object.entries(ask.args)
    .map(([k, v]) => `${k}: ${v}`)
    .join(', ')})`;
  const failures: string[] = [];

  // REST
  const path = operation.rest.replace(/\{(\w+)\}/g, (_, name: string) => String(ask.args[name]));
  const req: HttpRequest = { method: 'GET', path };
  const rest = await withinBudget(fixture, operation.maxStatements, `REST GET ${path}`, failures, () => send(ctx.baseUrl, req));
  failures.push(...(ctx.openapi.problems(req, rest) ?? [`GET ${path} matches no operation of the spec`]).map((p) => `REST ${p}`));
  failures.push(...serverTimingProblems(rest).map((p) => `REST GET ${path}: ${p}`));
  if (expected === null) {
    failures.push(...problemChecks(ctx, rest, 404, 'not-found').map((p) => `REST GET ${path}: ${p}`));
  } else if (rest.status !== 200) {
    failures.push(`REST GET ${path}: expected 200, got ${describe(rest)}`);
  } else if (!isDeepStrictEqual(rest.json, expected)) {
    failures.push(`REST GET ${path}: body differs from the seed's answer\n${readableDiff(expected, rest.json)}`);
  }

  // GraphQL
  const query = operation.graphql;
  const gql = await withinBudget(fixture, operation.maxStatements, `GraphQL ${label}`, failures, () =>
    postGraphql(ctx.baseUrl, { query, variables: ask.args }),
  );
  failures.push(...serverTimingProblems(gql).map((p) => `GraphQL ${label}: ${p}`));
  if (gql.status !== 200 || gql.mediaType !== 'application/json') {
    failures.push(`GraphQL ${label}: expected 200 application/json, got ${describe(gql)}`);
  } else {
    failures.push(...graphqlResponseProblems(ctx.graphqlSchema, query, ask.args, gql.json).map((p) => `GraphQL ${label}: ${p}`));
    const body = gql.json as { data?: Record<string, unknown>; errors?: unknown };
    if (body.errors !== undefined) failures.push(`GraphQL ${label}: unexpected errors ${JSON.stringify(body.errors).slice(0, 300)}`);
    const actual = body.data?.[ask.operation];
    if (!isDeepStrictEqual(actual, expected)) {
      failures.push(`GraphQL ${label}: data differs from the seed's answer\n${readableDiff(expected, actual)}`);
    }
    // Parity: the same question gets the same data over both protocols.
    if (rest.status === 200 && expected !== null && !isDeepStrictEqual(rest.json, actual)) {
      failures.push(`REST and GraphQL disagree on ${label}\n${readableDiff(rest.json, actual)}`);
    }
  }
  return failures;
}

/** Runs one request and checks how many statements the implementation ran against the API's tables. */
async function withinBudget<T>({ rows }: AskFixture, max: number, label: string, failures: string[], request: () => Promise<T>): Promise<T> {
  await rows.resetStatementCount();
  const response = await request();
  const count = await rows.statementCount();
  if (count > max) failures.push(`${label}: ran ${count} SQL statements against the tables, at most ${max} allowed (N+1 queries?)`);
  return response;
}
