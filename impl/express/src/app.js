// Builds the Express app: REST routes, POST /graphql (express-graphql), 405 for
// known paths with other methods, a catch-all 404, and the error handler that
// turns every error into application/problem+json.
//
// Express defaults are kept (weak ETags, default query parser, HEAD served by
// GET handlers) except two routing settings the contract needs: paths are
// exact, so /COMMENT/1 and /comment/1/ are unknown paths (404), not aliases.
// x-powered-by is switched off.

import express from 'express';
import { graphqlHTTP } from 'express-graphql';
import { execute, formatError, GraphQLError, parse } from 'graphql';

import { createForumHandlers } from './handlers/forum.js';
import { forumRoutes } from './routes/forum.js';
import { createRootValue, schema } from './graphql/schema.js';
import { limitRules } from './graphql/limits.js';
import { PROBLEMS, sendProblem, methodNotAllowed, notFound, logInternalError } from './problem.js';
import { createAuth } from './auth.js';
import { createUsersHandlers } from './handlers/users.js';
import { USERS_PATHS, usersRoutes } from './routes/users.js';
import { createDocumentsHandlers } from './handlers/documents.js';
import { DOCUMENTS_PATH, documentsRoutes } from './routes/documents.js';
import { jsonBody } from './json-body.js';
import { serverTiming } from './server-timing.js';

export const BODY_LIMIT = '64kb'; // 65,536 bytes; a larger body is a 413

// body-parser leaves req.body undefined when the request carries no body at
// all; treat that like the empty body it parses to {} (GraphQL then answers
// "Must provide query string.") instead of letting express-graphql re-read it.
function defaultEmptyBody(req, res, next) {
  if (req.body === undefined) req.body = {};
  next();
}

// The GraphQL-over-HTTP request shape: a JSON object whose `variables` is an
// object or null and whose `operationName` is a string or null. express-graphql
// itself would JSON-parse a string `variables` and ignore a non-string
// `operationName`; the contract makes both a request error (400, no "data").
function requireGraphqlRequestShape(req, res, next) {
  const body = req.body;
  let problem = null;
  if (body === null || typeof body !== 'object' || Array.isArray(body)) problem = 'The request body must be a JSON object.';
  else if (body.variables != null && (typeof body.variables !== 'object' || Array.isArray(body.variables))) {
    problem = '"variables" must be an object or null.';
  } else if (body.operationName != null && typeof body.operationName !== 'string') {
    problem = '"operationName" must be a string or null.';
  }
  if (problem === null) return next();
  res.status(400).json({ errors: [{ message: problem }] });
}

// express-graphql 0.12 answers 500 when execute() returns no data, which
// graphql 15 does for request errors found at execution time (variables that
// do not coerce, an unknown operationName, several operations and none named).
// Thrown from here they take express-graphql's own path for those errors:
// HTTP 400, {"errors":[<the first error>]}, no "data".
async function executeOrRequestError(args) {
  const result = await execute(args);
  if (result.data === undefined && result.errors?.length) throw result.errors[0];
  return result;
}

// graphql's recursive-descent parser runs out of stack on documents nested a
// few thousand levels deep (possible within 64 KiB); express-graphql already
// answers 400 for anything parse() throws, this only gives it a clear message.
function parseDocument(source) {
  try {
    return parse(source);
  } catch (err) {
    if (err instanceof RangeError) throw new GraphQLError('Syntax Error: the document is nested too deeply.');
    throw err;
  }
}

// Errors raised by resolvers that are not GraphQLErrors (database down, bugs)
// are logged once and reported without internals.
function formatGraphQLError(error) {
  const original = error.originalError;
  if (error instanceof GraphQLError && error.path !== undefined && original && !(original instanceof GraphQLError)) {
    logInternalError(`graphql ${error.path.join('.')}`, original);
    return {
      message: 'Internal server error',
      locations: error.locations,
      path: error.path,
      extensions: { code: 'INTERNAL_SERVER_ERROR' },
    };
  }
  return formatError(error);
}

// The router could not percent-decode a path parameter: name it from the path
// (/comment/{id}, /comments/{limit}, /user/{id}/comment, /user/{id}/comments/{limit}).
function undecodableParameter(path) {
  const segments = path.split('/');
  const bad = segments.findIndex((segment) => {
    try {
      decodeURIComponent(segment);
      return false;
    } catch {
      return true;
    }
  });
  return segments[1] === 'comments' || bad === 4 ? 'limit' : 'id';
}

// Maps errors raised before a handler could answer (body-parser, the router's
// parameter decoding) to problems; anything else is a logged 500.
function clientProblem(err, req) {
  const status = err.status ?? err.statusCode;
  if (err.type === 'entity.too.large' || status === 413) {
    return [PROBLEMS.payloadTooLarge, `request body is larger than ${err.limit ?? 65536} bytes`];
  }
  if (status === 415) return [PROBLEMS.unsupportedMediaType, err.message];
  if (status === 400 && err instanceof URIError) {
    return [PROBLEMS.invalidParameter, `path parameter '${undecodableParameter(req.path)}' is not valid percent-encoding`];
  }
  if (err.type === 'entity.parse.failed') return [PROBLEMS.malformedBody, 'request body is not valid JSON'];
  if (status === 400) return [PROBLEMS.malformedBody, err.message];
  return null;
}

function errorHandler(err, req, res, next) {
  const mapped = clientProblem(err, req);
  if (mapped && !res.headersSent) return sendProblem(res, ...mapped);
  logInternalError(`${req.method} ${req.originalUrl}`, err);
  if (res.headersSent) {
    // Too late for a problem document: drop the connection.
    req.socket.destroy();
    return;
  }
  sendProblem(res, PROBLEMS.internal);
}

/**
 * The app serves the APIs it is given a data layer for (server.js passes those
 * whose database is configured); the others' paths are unknown (404).
 * @param {{ forum?: ReturnType<import('./data/forum.js').createForumData>, users?: { data: ReturnType<import('./data/users.js').createUsersData>, jwt: { secret: string, lifetimeSeconds: number } }, documents?: ReturnType<import('./data/documents.js').createDocumentsData> }} apis
 */
export function buildApp(apis) {
  const app = express();
  app.disable('x-powered-by');
  app.enable('case sensitive routing');
  app.enable('strict routing');

  // First in the chain, so that Server-Timing covers everything the framework does.
  if (apis.users) app.use(USERS_PATHS, serverTiming);
  if (apis.documents) app.use(DOCUMENTS_PATH, serverTiming);

  app.route('/health').get(health).all(methodNotAllowed('GET, HEAD'));
  if (apis.forum) mountForum(app, apis.forum);
  if (apis.users) mountUsers(app, apis.users);
  if (apis.documents) app.use(documentsRoutes(createDocumentsHandlers(apis.documents)));

  app.use(notFound);
  app.use(errorHandler);
  return app;
}

function health(req, res) {
  res.json({ status: 'ok' });
}

/** @param {{ data: ReturnType<import('./data/users.js').createUsersData>, jwt: { secret: string, lifetimeSeconds: number } }} users */
function mountUsers(app, { data, jwt }) {
  const auth = createAuth(jwt, (id) => data.byId(id));
  app.use(usersRoutes(createUsersHandlers(data, auth), auth));
}

function mountForum(app, data) {
  app.use(forumRoutes(createForumHandlers(data)));
  app.post(
    '/graphql',
    jsonBody({ limit: BODY_LIMIT, unsupported: 'POST /graphql takes an application/json body' }),
    defaultEmptyBody,
    requireGraphqlRequestShape,
    graphqlHTTP({
      schema,
      rootValue: createRootValue(data),
      graphiql: false,
      validationRules: limitRules,
      customParseFn: parseDocument,
      customExecuteFn: executeOrRequestError,
      customFormatErrorFn: formatGraphQLError,
    }),
  );
  app.all('/graphql', methodNotAllowed('POST'));
}
