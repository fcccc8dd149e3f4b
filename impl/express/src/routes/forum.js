// REST routes -> handlers. Every known path answers other methods with 405.
// (Express answers HEAD with the GET handler, as it does by default.)
// Paths are exact, like the app's own routes (src/app.js): case-sensitive, and
// a trailing slash is another path.

import { Router } from 'express';
import { methodNotAllowed } from '../problem.js';

export function forumRoutes(handlers) {
  const router = Router({ caseSensitive: true, strict: true });
  router.route('/comment/:id').get(handlers.commentById).all(methodNotAllowed('GET, HEAD'));
  router.route('/comments/:limit').get(handlers.commentsByLimit).all(methodNotAllowed('GET, HEAD'));
  router.route('/user/:id/comment').get(handlers.firstCommentByUserId).all(methodNotAllowed('GET, HEAD'));
  router.route('/user/:id/comments/:limit').get(handlers.commentsByUserId).all(methodNotAllowed('GET, HEAD'));
  return router;
}
