// Everything a suite needs to check one running implementation of one API.
import type { GraphQLSchema } from 'graphql';
import type { DataStore } from './changes.ts';
import type { RowChange } from './changes.ts';
import type { OpenApiValidator } from './spec/openapi.ts';
import type { Args } from './case-files.ts';

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
  /** Digests all of the API's data: equal digests before and after a request mean it changed nothing. */
  readonly store: DataStore;
  /** Puts the seed back after a case that changed the data. */
  readonly reset: () => Promise<void>;
  /** The JWT_SECRET the implementation was started with: the suite forges tokens with it. */
  readonly jwtSecret: string;
  /** False once the implementation's process has exited. */
  readonly alive: () => boolean;
  /** Which cases to run (absent: all). A planted defect runs only the cases that must catch it. */
  readonly selects?: (caseId: string) => boolean;
}
