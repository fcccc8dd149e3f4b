// The forum API's routes as a Hapi plugin: the four REST reads (params → joi → handler) and
// POST /graphql (graphql-js behind the route), and a 405 for every other method on the same
// paths (src/problem.js). HEAD is served by the GET routes (Hapi's default).

import { createGraphqlHandler } from '../graphql/endpoint.js';
import { methodNotAllowed, validationFailed } from '../problem.js';
import { commentParams, limitParams, userLimitParams, userParams, VALIDATION } from '../schemas/forum.js';

// 64 KiB; JSON only, and a missing Content-Type is not taken for JSON (Hapi's default would).
const JSON_BODY = { maxBytes: 64 * 1024, allow: 'application/json', defaultContentType: 'application/octet-stream', output: 'data', parse: true };

// [path, joi schema of its parameters, handler name]
const READS = [
  ['/comment/{id}', commentParams, 'commentById'],
  ['/comments/{limit}', limitParams, 'commentsByLimit'],
  ['/user/{id}/comment', userParams, 'firstCommentOfUser'],
  ['/user/{id}/comments/{limit}', userLimitParams, 'commentsOfUser'],
];

export const forumRoutes = {
  name: 'fairbench-forum',
  register(server, { handlers, data }) {
    server.route([
      ...READS.flatMap(([path, params, name]) => [
        { method: 'GET', path, options: { validate: { params, options: VALIDATION, failAction: validationFailed }, handler: handlers[name] } },
        { ...methodNotAllowed('GET, HEAD'), path },
      ]),
      { method: 'POST', path: '/graphql', options: { payload: JSON_BODY, handler: createGraphqlHandler(data) } },
      { ...methodNotAllowed('POST'), path: '/graphql' },
    ]);
  },
};
