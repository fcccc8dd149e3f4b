// Builds the Hapi server: exact routing, /health, the documents routes (a plugin), problem+json
// for every error and Server-Timing on every response. Hapi's defaults are kept otherwise.

import Hapi from '@hapi/hapi';
import Joi from 'joi';

import { createDocumentsHandlers } from './handlers/documents.js';
import { PROBLEMS, problemError, problemResponse } from './problem.js';
import { documentsRoutes } from './routes/documents.js';
import { serverTiming } from './timing.js';

/**
 * @param {{ port: number, host: string, documents: ReturnType<import('./data/documents.js').createDocumentsData> }} options
 */
export async function createServer({ port, host, documents }) {
  const server = Hapi.server({
    port,
    host,
    // The contract's paths are exact: /Documents/x and /documents/ are unknown paths (404).
    router: { isCaseSensitive: true, stripTrailingSlash: false },
  });
  server.validator(Joi);

  server.ext('onPreResponse', problemResponse);
  await server.register(serverTiming);

  server.route([
    { method: 'GET', path: '/health', handler: () => ({ status: 'ok' }) },
    {
      method: '*',
      path: '/health',
      handler(request) {
        const error = problemError(PROBLEMS.methodNotAllowed, `${request.method.toUpperCase()} is not allowed here; allowed: GET, HEAD`);
        error.output.headers.Allow = 'GET, HEAD';
        throw error;
      },
    },
  ]);
  await server.register({ plugin: documentsRoutes, options: { handlers: createDocumentsHandlers(documents) } });
  return server;
}
