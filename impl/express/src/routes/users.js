// Routes of the users API -> handlers. Every known path answers other methods
// with 405. Request bodies: application/json only (415), at most 64 KiB (413),
// valid JSON (400 malformed-body); parsed after authentication and the id and
// permission checks, so a refused request costs no body parsing.
import { Router } from 'express';

import { requireAdmin } from '../auth.js';
import { jsonBody } from '../json-body.js';
import { methodNotAllowed } from '../problem.js';

const BODY_LIMIT = '64kb';
const body = jsonBody({ limit: BODY_LIMIT });

export function usersRoutes(handlers, auth) {
  const authenticate = auth.authenticate;
  const router = Router({ caseSensitive: true, strict: true });
  router.route('/users').get(handlers.list).post(body, handlers.register).all(methodNotAllowed('GET, HEAD, POST'));
  router
    .route('/users/:id')
    .get(handlers.get)
    .put(authenticate, handlers.target, body, handlers.update)
    .delete(authenticate, handlers.target, handlers.remove)
    .all(methodNotAllowed('GET, HEAD, PUT, DELETE'));
  router.route('/auth/login').post(body, handlers.login).all(methodNotAllowed('POST'));
  router.route('/me').get(authenticate, handlers.me).all(methodNotAllowed('GET, HEAD'));
  router.route('/admin/users').get(authenticate, requireAdmin, handlers.list).all(methodNotAllowed('GET, HEAD'));
  return router;
}
