// Everything a suite needs to check one running implementation of one API.
import type { GraphQLSchema } from 'graphql';
import type { RowChange, RowStore } from './changes.ts';
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
  readonly operations: OperationsFile;
  readonly oracle: Oracle;
  readonly rows: RowStore;
  /** False once the implementation's process has exited. */
  readonly alive: () => boolean;
}
