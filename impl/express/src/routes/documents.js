// Routes of the documents API -> handlers. Every known path answers other methods with 405.
// Bodies: application/json only (415, also when the Content-Type is missing), at most 512 KiB
// (413), any JSON value (a non-object is then a 400 invalid-body, not malformed-body).

import express, { Router } from 'express';

import { methodNotAllowed, PROBLEMS, sendProblem } from '../problem.js';

export const DOCUMENTS_PATH = '/documents';
// Every valid document fits: the largest, a table, is ~150 KB (~280 KB if every character needed escaping).
const BODY_LIMIT = '512kb';
const JSON_MEDIA_TYPE = /^application\/json[\t ]*(;|$)/i;

function requireJson(req, res, next) {
  const type = req.headers['content-type'];
  if (typeof type !== 'string' || !JSON_MEDIA_TYPE.test(type.trim())) {
    return sendProblem(res, PROBLEMS.unsupportedMediaType, 'the body must be application/json');
  }
  next();
}

const jsonBody = [requireJson, express.json({ limit: BODY_LIMIT, strict: false })];

export function documentsRoutes(handlers) {
  const router = Router({ caseSensitive: true, strict: true });
  router.route('/documents').post(jsonBody, handlers.create).all(methodNotAllowed('POST'));
  router
    .route('/documents/:id')
    .get(handlers.get)
    .put(jsonBody, handlers.replace)
    .delete(handlers.remove)
    .all(methodNotAllowed('GET, HEAD, PUT, DELETE'));
  return router;
}
