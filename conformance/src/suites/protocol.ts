// Cases about the served protocol itself: /health and the GraphQL schema.
import type { IntrospectionQuery } from 'graphql';
import type { SuiteContext } from '../context.ts';
import { describe, postGraphql, send } from '../http.ts';
import { runCase, type CaseResult } from '../outcome.ts';
import { serverTimingProblems } from '../checks/server-timing.ts';
import { INTROSPECTION_QUERY, schemaDifferences } from '../spec/graphql.ts';

/** /health always; the served GraphQL schema against the spec's when the API has GraphQL. */
export async function runProtocol(ctx: SuiteContext, graphql: boolean): Promise<CaseResult[]> {
  const health = await runCase('protocol/health', 'protocol', async () => {
    const req = { method: 'GET', path: '/health' };
    const res = await send(ctx.baseUrl, req);
    if (res.status !== 200) return [`expected 200, got ${describe(res)}`];
    return [...(ctx.openapi.problems(req, res) ?? ['/health is not in the spec']), ...serverTimingProblems(res)];
  });
  if (!graphql) return [health];
  return [
    health,
    await runCase('protocol/graphql-schema-equals-spec', 'protocol', async () => {
      const res = await postGraphql(ctx.baseUrl, { query: INTROSPECTION_QUERY });
      const body = res.json as { data?: IntrospectionQuery; errors?: unknown } | undefined;
      if (res.status !== 200 || body?.data === undefined) return [`introspection failed: ${describe(res)}`];
      return schemaDifferences(ctx.graphqlSchema, body.data);
    }),
  ];
}
