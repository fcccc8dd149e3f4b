// Builds the Elysia app from the APIs it is given a data layer for: Server-Timing on every
// response, /health, a plugin per API (tpcc, forum, users, documents, sports), and one error hook that answers every error as
// application/problem+json (src/problem.ts) — unknown paths, validation, parsing, refusals.
//
// Elysia defaults are kept except two settings the contract needs: strictPath (so
// /tpcc/new-order/ and /documents/ are unknown paths, not an alias) and normalize: false (an unknown body
// member is a 400, not silently dropped).
import { Elysia, ValidationError } from 'elysia';
import { PROBLEMS, ProblemError, logInternalError, methodNotAllowed, problemResponse } from './problem.ts';
import type { DocumentsData } from './documents/data.ts';
import type { ForumData } from './forum/data.ts';
import { createGraphqlEndpoint } from './forum/graphql/endpoint.ts';
import { createForumHandlers } from './forum/handlers.ts';
import { forumRoutes } from './forum/routes.ts';
import { createDocumentsHandlers } from './documents/handlers.ts';
import { documentsRoutes } from './documents/routes.ts';
import type { JwtConfig } from './config.ts';
import type { SportsData } from './sports/data.ts';
import { createSportsHandlers } from './sports/handlers.ts';
import { sportsRoutes } from './sports/routes.ts';
import { createTpccHandlers } from './tpcc/handlers.ts';
import type { UsersData } from './users/data.ts';
import { createUsersHandlers } from './users/handlers.ts';
import { usersRoutes } from './users/routes.ts';
import { tpccRoutes } from './tpcc/routes.ts';
import type { TpccData } from './tpcc/data.ts';

/** A validation failure in one line: where, and what was expected. */
function validationDetail(error: Readonly<ValidationError>): string {
  const first = error.valueError;
  if (first === undefined) return 'the body does not match the schema';
  return `${first.path === '' ? 'body' : first.path}: ${first.message}`;
}

export interface Apis {
  readonly tpcc?: TpccData;
  readonly forum?: ForumData;
  readonly documents?: DocumentsData;
  readonly users?: { readonly data: UsersData; readonly jwt: JwtConfig };
  readonly sports?: { readonly data: SportsData; readonly jwt: JwtConfig };
}

export function buildApp(apis: Apis) {
  // Server-Timing: from the request entering Elysia to the response being built (onRequest → afterHandle or error).
  const started = new WeakMap<Request, number>();
  const serverTiming = (request: Request) => `app;dur=${(performance.now() - (started.get(request) ?? performance.now())).toFixed(3)}`;

  const app = new Elysia({ strictPath: true, normalize: false })
    .onRequest(({ request }) => {
      started.set(request, performance.now());
    })
    .onAfterHandle(({ request, set }) => {
      set.headers['server-timing'] = serverTiming(request);
    })
    .onError(({ code, error, request }) => {
      const headers = { 'server-timing': serverTiming(request) };
      // Elysia wraps what a parse hook throws in a ParseError: the problem is its cause.
      const problem = error instanceof ProblemError ? error : (error as { cause?: unknown }).cause instanceof ProblemError ? ((error as { cause: ProblemError }).cause) : undefined;
      if (problem !== undefined) return problemResponse(problem.problem, problem.message, { ...headers, ...problem.headers });
      if (code === 'NOT_FOUND') return problemResponse(PROBLEMS.notFound, 'no such resource', headers);
      // A path or query parameter's schema (an id, a limit) is checked before the body's (the spec's order of faults).
      if (code === 'VALIDATION' && (error.type === 'params' || error.type === 'query')) return problemResponse(PROBLEMS.invalidParameter, validationDetail(error), headers);
      if (code === 'VALIDATION') return problemResponse(PROBLEMS.invalidBody, validationDetail(error), headers);
      if (code === 'PARSE') return problemResponse(PROBLEMS.malformedBody, 'request body is not valid JSON', headers);
      logInternalError(`${request.method} ${new URL(request.url).pathname}`, error);
      return problemResponse(PROBLEMS.internal, undefined, headers);
    })
    .get('/health', () => ({ status: 'ok' }))
    .all('/health', methodNotAllowed('GET'));
  // The routes of an API without a database are unknown paths (404).
  return app
    .use(apis.tpcc ? tpccRoutes(createTpccHandlers(apis.tpcc)) : new Elysia())
    .use(apis.forum ? forumRoutes(createForumHandlers(apis.forum), createGraphqlEndpoint(apis.forum)) : new Elysia())
    .use(apis.users ? usersRoutes(createUsersHandlers(apis.users.data), apis.users.jwt) : new Elysia())
    .use(apis.documents ? documentsRoutes(createDocumentsHandlers(apis.documents)) : new Elysia())
    .use(apis.sports ? sportsRoutes(createSportsHandlers(apis.sports.data), apis.sports.jwt) : new Elysia());
}
