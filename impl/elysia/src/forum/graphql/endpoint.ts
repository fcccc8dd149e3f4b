// POST /graphql of the forum API: graphql-js behind an Elysia route. The route's parse hook
// reads the body (415, 413, malformed JSON: problems, as on every route); this handler does
// GraphQL over HTTP as spec/schema.graphql states it: request errors (the body's shape,
// syntax, validation with the contract's limits, variables that do not coerce, an unknown
// operation, a mutation) are HTTP 400 {errors} without data; once execution starts, HTTP 200
// {data, errors?}. The body's shape is checked here, not by a `t` body schema: a failing
// schema would be a problem+json 400, and GraphQL's request errors are {errors}.
import { execute, GraphQLError, parse, specifiedRules, validate, type DocumentNode, type ValidationRule } from 'graphql';
import { databaseUnavailable } from '../../db-timeouts.ts';
import { logInternalError } from '../../problem.ts';
import type { ForumData } from '../data.ts';
import { LIMIT_RULES } from './limits.ts';
import { createRootValue, schema } from './schema.ts';

// graphql 16 validates a mutation against a schema without one and then answers {data: null}
// from execute; the contract makes it a request error (graphql 17's KnownOperationTypesRule).
const knownOperationTypes: ValidationRule = (context) => ({
  OperationDefinition(node) {
    if (!context.getSchema().getRootType(node.operation)) context.reportError(new GraphQLError(`The schema does not support ${node.operation} operations.`, { nodes: node }));
  },
});

const RULES: readonly ValidationRule[] = [...specifiedRules, knownOperationTypes, ...LIMIT_RULES];

interface GraphqlRequest {
  readonly query: string;
  readonly variables?: Record<string, unknown> | null;
  readonly operationName?: string | null;
}

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/** The body as a GraphQL-over-HTTP request, or what is wrong with it. Other members (extensions) are ignored. */
function asRequest(body: unknown): GraphqlRequest | string {
  if (!isObject(body)) return 'The request body must be a JSON object.';
  if (typeof body.query !== 'string' || body.query === '') return 'Must provide query string.';
  if (body.variables != null && !isObject(body.variables)) return '"variables" must be an object or null.';
  if (body.operationName != null && typeof body.operationName !== 'string') return '"operationName" must be a string or null.';
  return body as unknown as GraphqlRequest;
}

/** The document, or the syntax error (graphql's parser runs out of stack on documents nested thousands deep). */
function parseQuery(query: string): DocumentNode | GraphQLError {
  try {
    return parse(query);
  } catch (err) {
    if (err instanceof GraphQLError) return err;
    if (err instanceof RangeError) return new GraphQLError('Syntax Error: the document is nested too deeply.');
    throw err;
  }
}

/** A resolver's own error: a database that did not answer is said so; anything else is logged once and reported without internals. */
function format(error: GraphQLError) {
  const original = error.originalError;
  if (error.path === undefined || original === undefined || original instanceof GraphQLError) return error.toJSON();
  const at = { locations: error.locations, path: error.path };
  if (databaseUnavailable(original)) return { message: 'The database did not answer in time; retry later.', ...at, extensions: { code: 'SERVICE_UNAVAILABLE' } };
  logInternalError(`graphql ${error.path.join('.')}`, original);
  return { message: 'Internal server error', ...at, extensions: { code: 'INTERNAL_SERVER_ERROR' } };
}

export interface GraphqlAnswer {
  readonly status: 200 | 400;
  readonly body: { data?: unknown; errors?: unknown[] };
}

export type GraphqlEndpoint = (body: unknown) => Promise<GraphqlAnswer>;

export function createGraphqlEndpoint(data: ForumData): GraphqlEndpoint {
  const rootValue = createRootValue(data);
  const requestError = (errors: readonly GraphQLError[]): GraphqlAnswer => ({ status: 400, body: { errors: errors.map(format) } });
  return async (body) => {
    const request = asRequest(body);
    if (typeof request === 'string') return requestError([new GraphQLError(request)]);
    const document = parseQuery(request.query);
    if (document instanceof GraphQLError) return requestError([document]);
    const invalid = validate(schema, document, RULES);
    if (invalid.length > 0) return requestError(invalid);
    const result = await execute({ schema, document, rootValue, variableValues: request.variables ?? undefined, operationName: request.operationName ?? undefined });
    // No data: execution never started (variables that do not coerce, no such operation).
    if (result.data === undefined) return requestError(result.errors ?? []);
    return { status: 200, body: result.errors ? { data: result.data, errors: result.errors.map(format) } : { data: result.data } };
  };
}
