// The documents API's routes as a Hapi plugin: method + path → validation → handler, and a
// 405 for every other method on the same paths (src/problem.js).

import { methodNotAllowed, validationFailed } from '../problem.js';
import { documentInput, documentParams } from '../schemas/documents.js';

// 512 KiB: every valid document fits (the largest, a table, is ~150 KB; ~350 KB if every
// character needed escaping). A missing Content-Type is not taken for JSON (Hapi's default
// would), so it is a 415 like any other type.
const JSON_BODY = { maxBytes: 512 * 1024, allow: 'application/json', defaultContentType: 'application/octet-stream', output: 'data', parse: true };

export const documentsRoutes = {
  name: 'fairbench-documents',
  register(server, { handlers }) {
    const params = documentParams;
    const failAction = validationFailed;
    server.route([
      { method: 'POST', path: '/documents', options: { payload: JSON_BODY, validate: { payload: documentInput, failAction }, handler: handlers.create } },
      { ...methodNotAllowed('POST'), path: '/documents' },
      { method: 'GET', path: '/documents/{id}', options: { validate: { params, failAction }, handler: handlers.get } },
      { method: 'PUT', path: '/documents/{id}', options: { payload: JSON_BODY, validate: { params, payload: documentInput, failAction }, handler: handlers.replace } },
      { method: 'DELETE', path: '/documents/{id}', options: { validate: { params, failAction }, handler: handlers.remove } },
      { ...methodNotAllowed('GET, HEAD, PUT, DELETE'), path: '/documents/{id}' },
    ]);
  },
};
