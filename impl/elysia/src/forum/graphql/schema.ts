// The forum's GraphQL schema (schema.graphql beside this file, a copy of the repo's
// spec/schema.graphql: the test checks they are the same type system, descriptions included,
// so introspection answers the same) and its root resolvers. The resolvers apply the REST
// parameter rules to their arguments: a value outside them is a field error with code
// BAD_USER_INPUT (data.<field> null, HTTP 200). Each resolver is one read of the data layer
// (the join is SQL's, so `user` costs no statement of its own); its errors are the endpoint's
// to report (endpoint.ts).
import { buildSchema, GraphQLError } from 'graphql';
import type { ForumData } from '../data.ts';
import { MAX_ID, MAX_LIMIT, idArgument, limitArgument } from '../schemas.ts';

export const schema = buildSchema(await Bun.file(new URL('./schema.graphql', import.meta.url)).text());

export const BAD_USER_INPUT = 'BAD_USER_INPUT';

function required(value: number | null, message: string): number {
  if (value === null) throw new GraphQLError(message, { extensions: { code: BAD_USER_INPUT } });
  return value;
}
const id = (raw: unknown) => required(idArgument(raw), `Argument "id" must be an integer 1..${MAX_ID} (no sign, no leading zeros).`);
const limit = (raw: unknown) => required(limitArgument(raw), `Argument "limit" must be an integer 1..${MAX_LIMIT}.`);

interface Args {
  readonly id?: unknown;
  readonly limit?: unknown;
}

export function createRootValue(data: ForumData) {
  return {
    commentById: (args: Args) => data.commentById(id(args.id)),
    commentsByLimit: (args: Args) => data.commentsByLimit(limit(args.limit)),
    commentByUserId: (args: Args) => data.firstCommentOfUser(id(args.id)),
    // [] for a user without comments, null for a user that does not exist.
    commentsByUserId: (args: Args) => data.commentsOfUser(id(args.id), limit(args.limit)),
  };
}
