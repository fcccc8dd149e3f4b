// POST /graphql of the forum API: graphql-js behind a Hapi route. Hapi reads the body (415,
// 413, malformed JSON as problems, like every route); this handler does GraphQL over HTTP as
// spec/schema.graphql states it: request errors (the body's shape, syntax, validation with the
// contract's limits, variables that do not coerce, an unknown operation) are HTTP 400
// {errors} without data; once execution starts, HTTP 200 {data, errors?}.

import { execute, GraphQLError, parse, specifiedRules, validate } from 'graphql';

import { logInternalError } from '../problem.js';
import { LIMIT_RULES } from './limits.js';
import { createRootValue, schema } from './schema.js';

// graphql 16 validates a mutation against a schema without one and then answers {data: null}
// from execute; the contract makes it a request error (graphql 17's KnownOperationTypesRule).
function knownOperationTypes(context) {
  return {
    OperationDefinition(node) {
      if (!context.getSchema().getRootType(node.operation)) context.reportError(new GraphQLError(`The schema does not support ${node.operation} operations.`, { nodes: node }));
    },
  };
}

const RULES = [...specifiedRules, knownOperationTypes, ...LIMIT_RULES];
const isObject = (value) => value !== null && typeof value === 'object' && !Array.isArray(value);

/** What is wrong with the body as a GraphQL-over-HTTP request, or null. */
function shapeError(body) {
  if (!isObject(body)) return 'The request body must be a JSON object.';
  if (typeof body.query !== 'string' || body.query === '') return 'Must provide query string.';
  if (body.variables != null && !isObject(body.variables)) return '"variables" must be an object or null.';
  if (body.operationName != null && typeof body.operationName !== 'string') return '"operationName" must be a string or null.';
  return null;
}

/** The document, or the syntax error (graphql's parser runs out of stack on documents nested thousands deep). */
function parseQuery(query) {
  try {
    return { document: parse(query) };
  } catch (err) {
    if (err instanceof GraphQLError) return { errors: [err] };
    if (err instanceof RangeError) return { errors: [new GraphQLError('Syntax Error: the document is nested too deeply.')] };
    throw err;
  }
}

// A resolver's own error (the database, a bug) is logged once and reported without internals.
function format(error) {
  const original = error.originalError;
  if (error.path !== undefined && original !== undefined && !(original instanceof GraphQLError)) {
    logInternalError(`graphql ${error.path.join('.')}`, original);
    return { message: 'Internal server error', locations: error.locations, path: error.path, extensions: { code: 'INTERNAL_SERVER_ERROR' } };
  }
  return error.toJSON();
}

/** @param {ReturnType<import('../data/forum.js').createForumData>} data */
export function createGraphqlHandler(data) {
  const rootValue = createRootValue(data);
  const requestError = (h, errors) => h.response({ errors: errors.map(format) }).code(400);
  return async function graphql(request, h) {
    // No body at all is an empty request: "Must provide query string."
    const body = request.payload ?? {};
    const problem = shapeError(body);
    if (problem !== null) return requestError(h, [new GraphQLError(problem)]);
    const { document, errors: syntaxErrors } = parseQuery(body.query);
    if (syntaxErrors) return requestError(h, syntaxErrors);
    const invalid = validate(schema, document, RULES);
    if (invalid.length > 0) return requestError(h, invalid);
    const result = await execute({ schema, document, rootValue, variableValues: body.variables ?? undefined, operationName: body.operationName ?? undefined });
    // No data: execution never started (variables that do not coerce, no such operation, a mutation).
    if (result.data === undefined) return requestError(h, result.errors ?? []);
    return result.errors ? { data: result.data, errors: result.errors.map(format) } : { data: result.data };
  };
}
