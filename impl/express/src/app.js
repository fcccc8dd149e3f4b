// Builds the Express app from the APIs it is given a data layer for: the shared
// middleware (Server-Timing first), /health, one router per API (routes/<api>.js
// -> handlers/<api>.js -> data/<api>.js), the catch-all 404 and the error handler
// that turns every error into application/problem+json (src/problem.js).
//
// Express defaults are kept (weak ETags, default query parser, HEAD served by
// GET handlers) except two routing settings the contract needs: paths are
// exact, so /COMMENT/1 and /comment/1/ are unknown paths (404), not aliases.
// x-powered-by is switched off.

import express from 'express';

import { createAuth, SPORTS_SUBJECT } from './auth.js';
import { graphqlEndpoint } from './graphql/endpoint.js';
import { createDocumentsHandlers } from './handlers/documents.js';
import { createForumHandlers } from './handlers/forum.js';
import { createSportsHandlers } from './handlers/sports.js';
import { createTpccHandlers } from './handlers/tpcc.js';
import { createUsersHandlers } from './handlers/users.js';
import { errorHandler, methodNotAllowed, notFound } from './problem.js';
import { documentsRoutes } from './routes/documents.js';
import { forumRoutes } from './routes/forum.js';
import { sportsRoutes } from './routes/sports.js';
import { tpccRoutes } from './routes/tpcc.js';
import { usersRoutes } from './routes/users.js';
import { serverTiming } from './server-timing.js';

// Each API's router over the data layer server.js made for it.
const ROUTERS = {
  forum: (data) => forumRoutes(createForumHandlers(data), graphqlEndpoint(data)),
  users: ({ data, jwt }) => {
    const auth = createAuth(jwt, (id) => data.byId(id));
    return usersRoutes(createUsersHandlers(data, auth), auth);
  },
  documents: (data) => documentsRoutes(createDocumentsHandlers(data)),
  tpcc: (data) => tpccRoutes(createTpccHandlers(data)),
  sports: ({ data, jwt }) => {
    const auth = createAuth(jwt, (id) => data.userById(Number(id)), SPORTS_SUBJECT);
    return sportsRoutes(createSportsHandlers(data, auth), auth);
  },
};

/**
 * The app serves the APIs it is given a data layer for (server.js passes those
 * whose database is configured); the others' paths are unknown (404).
 * @param {{ forum?: ReturnType<import('./data/forum.js').createForumData>, users?: { data: ReturnType<import('./data/users.js').createUsersData>, jwt: { secret: string, lifetimeSeconds: number } }, documents?: ReturnType<import('./data/documents.js').createDocumentsData>, tpcc?: ReturnType<import('./data/tpcc.js').createTpccData>, sports?: { data: ReturnType<import('./data/sports.js').createSportsData>, jwt: { secret: string, lifetimeSeconds: number } } }} apis
 */
export function buildApp(apis) {
  const app = express();
  app.disable('x-powered-by');
  app.enable('case sensitive routing');
  app.enable('strict routing');

  // First in the chain, so that Server-Timing covers everything the framework does, on every response.
  app.use(serverTiming);
  app.route('/health').get(health).all(methodNotAllowed('GET, HEAD'));
  for (const [name, router] of Object.entries(ROUTERS)) {
    if (apis[name]) app.use(router(apis[name]));
  }
  app.use(notFound);
  app.use(errorHandler);
  return app;
}

function health(req, res) {
  res.json({ status: 'ok' });
}
