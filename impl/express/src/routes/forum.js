// Routes of the forum API -> handlers: the four REST reads and POST /graphql.
// Every known path answers other methods with 405 (Express answers HEAD with
// the GET handler, as it does by default). Paths are exact, like the app's own
// routes (src/app.js): case-sensitive, and a trailing slash is another path.
// Last, the forum's own error mapping (handlers/forum.js); every other error
// goes on to the app's error handler.

import { Router } from 'express';
import { methodNotAllowed } from '../problem.js';

/**
 * @param {ReturnType<import('../handlers/forum.js').createForumHandlers>} handlers
 * @param {ReturnType<import('../graphql/endpoint.js').graphqlEndpoint>} graphql
 */
export function forumRoutes(handlers, graphql) {
  const router = Router({ caseSensitive: true, strict: true });
  router.route('/comment/:id').get(handlers.commentById).all(methodNotAllowed('GET, HEAD'));
  router.route('/comments/:limit').get(handlers.commentsByLimit).all(methodNotAllowed('GET, HEAD'));
  router.route('/user/:id/comment').get(handlers.firstCommentByUserId).all(methodNotAllowed('GET, HEAD'));
  router.route('/user/:id/comments/:limit').get(handlers.commentsByUserId).all(methodNotAllowed('GET, HEAD'));
  router.route('/graphql').post(graphql).all(methodNotAllowed('POST'));
  router.use(handlers.undecodableParameter);
  return router;
}
