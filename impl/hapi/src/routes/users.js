// The users API's routes as a Hapi plugin: method + path → auth → validation → handler, and
// a 405 for every other method on the same paths (src/problem.js). Hapi's lifecycle orders
// the checks: the token (401), then the body is read (415, 413, malformed 400), then the
// scope (403), then the id, the query and the body's schema (400), then the handler (404).

import { jwtAuth, SELF_SCOPE, STRATEGY, USERS_SUBJECT } from '../auth.js';
import { methodNotAllowed, validationFailed } from '../problem.js';
import { credentials, listQuery, registration, update, userParams, VALIDATION } from '../schemas/users.js';

// 64 KiB; JSON only, and a missing Content-Type is not taken for JSON (Hapi's default would).
const JSON_BODY = { maxBytes: 64 * 1024, allow: 'application/json', defaultContentType: 'application/octet-stream', output: 'data', parse: true };

const validate = (rules) => ({ ...rules, options: VALIDATION, failAction: validationFailed });
const token = { strategy: STRATEGY };
const adminOnly = { strategy: STRATEGY, access: { scope: ['admin'] } };
const selfOrAdmin = { strategy: STRATEGY, access: { scope: ['admin', SELF_SCOPE] } };

export const usersRoutes = {
  name: 'fairbench-users',
  async register(server, { handlers, secret, loadUser }) {
    await server.register({ plugin: jwtAuth, options: { strategy: STRATEGY, secret, subject: USERS_SUBJECT, loadUser } });
    server.route([
      { method: 'GET', path: '/users', options: { validate: validate({ query: listQuery }), handler: handlers.list } },
      { method: 'POST', path: '/users', options: { payload: JSON_BODY, validate: validate({ payload: registration }), handler: handlers.register } },
      { ...methodNotAllowed('GET, HEAD, POST'), path: '/users' },
      { method: 'GET', path: '/users/{id}', options: { validate: validate({ params: userParams }), handler: handlers.get } },
      { method: 'PUT', path: '/users/{id}', options: { auth: selfOrAdmin, payload: JSON_BODY, validate: validate({ params: userParams, payload: update }), handler: handlers.update } },
      { method: 'DELETE', path: '/users/{id}', options: { auth: selfOrAdmin, validate: validate({ params: userParams }), handler: handlers.remove } },
      { ...methodNotAllowed('GET, HEAD, PUT, DELETE'), path: '/users/{id}' },
      { method: 'POST', path: '/auth/login', options: { payload: JSON_BODY, validate: validate({ payload: credentials }), handler: handlers.login } },
      { ...methodNotAllowed('POST'), path: '/auth/login' },
      { method: 'GET', path: '/me', options: { auth: token, handler: handlers.me } },
      { ...methodNotAllowed('GET, HEAD'), path: '/me' },
      { method: 'GET', path: '/admin/users', options: { auth: adminOnly, validate: validate({ query: listQuery }), handler: handlers.list } },
      { ...methodNotAllowed('GET, HEAD'), path: '/admin/users' },
    ]);
  },
};
