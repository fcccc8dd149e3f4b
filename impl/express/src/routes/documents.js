// Routes of the documents API -> handlers. Every known path answers other methods with 405.
// Bodies: application/json only (415, also when the Content-Type is missing), at most 512 KiB
// (413), any JSON value (a non-object is then a 400 invalid-body, not malformed-body).

import { Router } from 'express';

import { jsonBody } from '../json-body.js';
import { methodNotAllowed } from '../problem.js';

// Every valid document fits: the largest, a table, is ~150 KB (~280 KB if every character needed escaping).
const BODY_LIMIT = '512kb';
const body = jsonBody({ limit: BODY_LIMIT, strict: false });

export function documentsRoutes(handlers) {
  const router = Router({ caseSensitive: true, strict: true });
  router.route('/documents').post(body, handlers.create).all(methodNotAllowed('POST'));
  router
    .route('/documents/:id')
    .get(handlers.get)
    .put(body, handlers.replace)
    .delete(handlers.remove)
    .all(methodNotAllowed('GET, HEAD, PUT, DELETE'));
  return router;
}
