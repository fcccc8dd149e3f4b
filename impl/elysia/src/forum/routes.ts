// Routes of the forum API, as an Elysia plugin: the four REST reads, each with its `params`
// schema (400 invalid-parameter before any database work), and POST /graphql (graphql-js
// behind the route, graphql/endpoint.ts) with the JSON parse hook every body route has (415,
// 413 over 64 KiB, 400 malformed-body). Any other method on these paths is a 405, GET
// /graphql included.
import { Elysia } from 'elysia';
import { jsonBody } from '../body.ts';
import { methodNotAllowed } from '../problem.ts';
import type { GraphqlEndpoint } from './graphql/endpoint.ts';
import type { ForumHandlers } from './handlers.ts';
import { commentParams, limitParams, userLimitParams, userParams } from './schemas.ts';

// An empty body is no GraphQL request (400 {errors}), not malformed JSON.
const parse = jsonBody({ limit: 64 * 1024, emptyIsNull: true });

export function forumRoutes(handlers: ForumHandlers, graphql: GraphqlEndpoint) {
  return new Elysia({ name: 'forum' })
    .get('/comment/:id', ({ params }) => handlers.commentById(Number(params.id)), { params: commentParams })
    .all('/comment/:id', methodNotAllowed('GET'))
    .get('/comments/:limit', ({ params }) => handlers.commentsByLimit(Number(params.limit)), { params: limitParams })
    .all('/comments/:limit', methodNotAllowed('GET'))
    .get('/user/:id/comment', ({ params }) => handlers.firstCommentOfUser(Number(params.id)), { params: userParams })
    .all('/user/:id/comment', methodNotAllowed('GET'))
    .get('/user/:id/comments/:limit', ({ params }) => handlers.commentsOfUser(Number(params.id), Number(params.limit)), { params: userLimitParams })
    .all('/user/:id/comments/:limit', methodNotAllowed('GET'))
    .post(
      '/graphql',
      async ({ body, set }) => {
        const answer = await graphql(body);
        set.status = answer.status;
        return answer.body;
      },
      { parse },
    )
    .all('/graphql', methodNotAllowed('POST'));
}
