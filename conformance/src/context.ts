// Everything a suite needs to check one running implementation of one API.
import type { GraphQLSchema } from 'graphql';
import type { PreparedApi } from './apis/types.ts';
import type { RowChange } from './changes.ts';
import type { OpenApiValidator } from './spec/openapi.ts';
import type { Args, OperationsFile } from './case-files.ts';

/** Expected answers from the seed; null means "not found" (REST 404, GraphQL null). */
export interface Oracle {
  answer(operation: string, args: Args): unknown;
  apply(change: RowChange): void;
}

export interface SuiteContext {
  readonly api: string;
  readonly baseUrl: string;
  readonly openapi: OpenApiValidator;
  readonly graphqlSchema: GraphQLSchema;
  /** The seeded API: its store (digest), and oracle/rows or documents/variables by kind. */
  readonly prepared: PreparedApi;
  /** operations.yaml, for the APIs with questions. */
  readonly operations?: OperationsFile;
  /** The JWT_SECRET the implementation was started with: the suite forges tokens with it. */
  readonly jwtSecret: string;
  /** False once the implementation's process has exited. */
  readonly alive: () => boolean;
}

/** A part of the prepared API that a suite cannot run without. */
export function needed<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`this API provides no ${what}, which the suite needs`);
  return value;
}
