// Builds the Hapi server from the APIs it is given a data layer for: exact routing, the
// shared extensions (problem+json for every error, Server-Timing on every response), /health,
// and one routes plugin per API (routes/<api>.js -> handlers/<api>.js -> data/<api>.js).
// Hapi's defaults are kept otherwise.

import Hapi from '@hapi/hapi';
import Joi from 'joi';

import { createTokens } from './auth.js';
import { createDocumentsHandlers } from './handlers/documents.js';
import { createForumHandlers } from './handlers/forum.js';
import { createSportsHandlers } from './handlers/sports.js';
import { createTpccHandlers } from './handlers/tpcc.js';
import { createUsersHandlers } from './handlers/users.js';
import { methodNotAllowed, problemResponse } from './problem.js';
import { documentsRoutes } from './routes/documents.js';
import { forumRoutes } from './routes/forum.js';
import { sportsRoutes } from './routes/sports.js';
import { tpccRoutes } from './routes/tpcc.js';
import { usersRoutes } from './routes/users.js';
import { serverTiming } from './server-timing.js';
import { requireUtf8Payload, watchPayloadBytes } from './utf8-payload.js';

// Each API's routes plugin over the data layer server.js made for it.
const PLUGINS = {
  documents: (data) => ({ plugin: documentsRoutes, options: { handlers: createDocumentsHandlers(data) } }),
  users: ({ data, jwt }) => ({
    plugin: usersRoutes,
    options: { handlers: createUsersHandlers(data, createTokens(jwt)), secret: jwt.secret, loadUser: (id) => data.byId(id) },
  }),
  tpcc: (data) => ({ plugin: tpccRoutes, options: { handlers: createTpccHandlers(data) } }),
  forum: (data) => ({ plugin: forumRoutes, options: { handlers: createForumHandlers(data), data } }),
  sports: ({ data, jwt }) => ({
    plugin: sportsRoutes,
    options: { handlers: createSportsHandlers(data, createTokens(jwt)), secret: jwt.secret, loadUser: (sub) => data.userById(Number(sub)) },
  }),
};

/**
 * onRequest: a chunked body (no Content-Length) gets a 'peek' listener. Hapi reads a body through
 * its peek tap when a request has one, and on maxBytes Wreck destroys the stream it read from:
 * without the tap that is the request itself, which closes the socket before the 413 is written
 * (a client that sends its whole body first sees a reset, no answer). With the tap only the tap
 * is destroyed, and Hapi's payload error path drains the rest of the body, then answers 413.
 */
function drainableChunkedBody(request, h) {
  if (request.headers['content-length'] === undefined && request.headers['transfer-encoding'] !== undefined) request.events.on('peek', () => {});
  return h.continue;
}

/**
 * The server serves the APIs it is given a data layer for; the others' paths are unknown (404).
 * @param {{ port: number, host: string, apis: {
 *   documents?: ReturnType<import('./data/documents.js').createDocumentsData>,
 *   users?: { data: ReturnType<import('./data/users.js').createUsersData>, jwt: { secret: string, lifetimeSeconds: number } },
 *   tpcc?: ReturnType<import('./data/tpcc.js').createTpccData>,
 *   forum?: ReturnType<import('./data/forum.js').createForumData>,
 *   sports?: { data: ReturnType<import('./data/sports.js').createSportsData>, jwt: { secret: string, lifetimeSeconds: number } },
 * } }} options
 */
export async function createServer({ port, host, apis }) {
  const server = Hapi.server({
    port,
    host,
    // The contract's paths are exact: /Documents/x and /documents/ are unknown paths (404).
    router: { isCaseSensitive: true, stripTrailingSlash: false },
  });
  server.validator(Joi);
  server.ext('onRequest', drainableChunkedBody);
  server.ext('onPreAuth', watchPayloadBytes);
  server.ext('onPostAuth', requireUtf8Payload);

  // The problem renderer first: Server-Timing's onPreResponse (a plugin, so it runs after it) sees the final response.
  server.ext('onPreResponse', problemResponse);
  await server.register(serverTiming);

  server.route([
    { method: 'GET', path: '/health', handler: () => ({ status: 'ok' }) },
    { ...methodNotAllowed('GET, HEAD'), path: '/health' },
  ]);
  for (const [name, plugin] of Object.entries(PLUGINS)) {
    if (apis[name]) await server.register(plugin(apis[name]));
  }
  return server;
}
