// POST /graphql of the forum API: the JSON body, the GraphQL-over-HTTP request
// shape, and express-graphql over the schema and resolvers (schema.js) with the
// contract's limits (limits.js). What express-graphql 0.12 needed help with is
// said at each function below.

import { graphqlHTTP } from 'express-graphql';
import { execute, formatError, GraphQLError, parse } from 'graphql';

import { jsonBody } from '../json-body.js';
import { logInternalError } from '../problem.js';
import { limitRules } from './limits.js';
import { createRootValue, schema } from './schema.js';

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

/**
 * The middleware chain of POST /graphql over the forum's data layer.
 * @param {ReturnType<import('../data/forum.js').createForumData>} data
 */
export function graphqlEndpoint(data) {
  return [
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
  ];
}
