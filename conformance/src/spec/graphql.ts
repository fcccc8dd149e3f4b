// GraphQL checks against spec/schema.graphql, using graphql-js itself:
// - a response is re-executed against the schema with the response's own data as
//   the root value; graphql-js then enforces every type, nullability and list rule,
//   and a deep comparison catches extra, missing or coerced fields;
// - an implementation's introspected schema must equal the spec's, both ways.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import {
  buildClientSchema,
  buildSchema,
  executeSync,
  findBreakingChanges,
  findDangerousChanges,
  getIntrospectionQuery,
  GraphQLSchema,
  Kind,
  parse,
  type DocumentNode,
  type GraphQLFieldResolver,
  type IntrospectionQuery,
} from 'graphql';
import { repoRoot } from '@fairbench/harness/paths.ts';
import { readableDiff } from '../outcome.ts';

export async function loadSpecSchema(file = join(repoRoot, 'spec', 'schema.graphql')): Promise<GraphQLSchema> {
  return buildSchema(await readFile(file, 'utf8'));
}

// Resolve each field to the value the implementation sent under its response key (alias or name).
const fromResponse: GraphQLFieldResolver<unknown, unknown> = (source, _args, _context, info) =>
  source !== null && typeof source === 'object' ? (source as Record<string, unknown>)[info.path.key as string] : undefined;

const TOP_LEVEL_KEYS = new Set(['data', 'errors', 'extensions']);

/** Problems with a GraphQL response body for a successful (executed) request. */
export function graphqlResponseProblems(schema: GraphQLSchema, query: string, variables: Record<string, unknown> | undefined, body: unknown): string[] {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return ['response body is not a JSON object'];
  const response = body as Record<string, unknown>;
  const problems = Object.keys(response)
    .filter((k) => !TOP_LEVEL_KEYS.has(k))
    .map((k) => `unexpected top-level key '${k}'`);
  problems.push(...errorListProblems(response['errors'], false));
  if (!('data' in response)) return [...problems, 'no "data" in the response of an executed request'];
  if (response['data'] === null) return problems;
  const document = parse(query);
  // Introspection fields resolve from the schema itself, not from a root value, so
  // their answers cannot be replayed; schemaDifferences() checks them instead.
  if (selectsIntrospection(document)) return problems;
  const replay = executeSync({
    schema,
    document,
    rootValue: response['data'],
    variableValues: variables ?? {},
    fieldResolver: fromResponse,
  });
  for (const error of replay.errors ?? []) {
    // A null the implementation reported an error for is legitimate.
    const reported = Array.isArray(response['errors']) && response['errors'].some((e) => isDeepStrictEqual((e as { path?: unknown }).path, error.path));
    if (!reported) problems.push(`data does not fit the schema at ${error.path?.join('.') ?? '?'}: ${error.message}`);
  }
  const replayed: unknown = JSON.parse(JSON.stringify(replay.data ?? null));
  if (!isDeepStrictEqual(replayed, response['data'])) {
    problems.push(`data has fields or values the query did not ask for, or lacks some it did:\n${readableDiff(replayed, response['data'])}`);
  }
  return problems;
}

function selectsIntrospection(document: DocumentNode): boolean {
  return document.definitions.some(
    (d) =>
      d.kind === Kind.OPERATION_DEFINITION &&
      d.selectionSet.selections.some((s) => s.kind === Kind.FIELD && s.name.value.startsWith('__') && s.name.value !== '__typename'),
  );
}

/** The `errors` list of a GraphQL response: a non-empty list of {message, ...} when present. */
export function errorListProblems(errors: unknown, required: boolean): string[] {
  if (errors === undefined) return required ? ['no "errors" list'] : [];
  if (!Array.isArray(errors) || errors.length === 0) return ['"errors" must be a non-empty list'];
  return errors.flatMap((e, i) =>
    e !== null && typeof e === 'object' && typeof (e as { message?: unknown }).message === 'string' ? [] : [`errors[${i}] has no string "message"`],
  );
}

export const INTROSPECTION_QUERY = getIntrospectionQuery({ descriptions: false });

// Built-in directives (@skip, @include, @deprecated, @specifiedBy, @oneOf) depend on the
// graphql library's version, not on the API: compare types only.
const withoutDirectives = (schema: GraphQLSchema): GraphQLSchema => new GraphQLSchema({ ...schema.toConfig(), directives: [] });

/** Differences between the spec's schema and the one the implementation reports by introspection. */
export function schemaDifferences(specSchema: GraphQLSchema, introspection: IntrospectionQuery): string[] {
  const spec = withoutDirectives(specSchema);
  const served = withoutDirectives(buildClientSchema(introspection));
  const describe = (prefix: string) => (c: { description: string }) => `${prefix}: ${c.description}`;
  return [
    ...findBreakingChanges(spec, served).map(describe('missing or changed in the implementation')),
    ...findDangerousChanges(spec, served).map(describe('differs in the implementation')),
    ...findBreakingChanges(served, spec).map(describe('extra in the implementation')),
  ];
}
