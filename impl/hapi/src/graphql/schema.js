// The forum's GraphQL schema (schema.graphql beside this file: the type system of the repo's
// spec/schema.graphql, descriptions included, so introspection answers the same) and its
// root resolvers, which apply the REST parameter rules to their arguments.

import { readFileSync } from 'node:fs';
import { buildSchema, GraphQLError } from 'graphql';

import { argument, forumId, forumLimit } from '../schemas/forum.js';

export const schema = buildSchema(readFileSync(new URL('./schema.graphql', import.meta.url), 'utf8'));

export const BAD_USER_INPUT = 'BAD_USER_INPUT';

function required(schemaOf, raw, message) {
  const value = argument(schemaOf, raw);
  // A field error: the field is null, the error carries the code.
  if (value === null) throw new GraphQLError(message, { extensions: { code: BAD_USER_INPUT } });
  return value;
}
const id = (raw) => required(forumId, raw, 'Argument "id" must be an integer 1..2147483647 (no sign, no leading zeros).');
const limit = (raw) => required(forumLimit, raw, 'Argument "limit" must be an integer 1..100.');

/** @param {ReturnType<import('../data/forum.js').createForumData>} data */
export function createRootValue(data) {
  return {
    commentById: (args) => data.commentById(id(args.id)),
    commentsByLimit: (args) => data.commentsByLimit(limit(args.limit)),
    commentByUserId: (args) => data.firstCommentOfUser(id(args.id)),
    // [] for a user without comments, null for a user that does not exist.
    commentsByUserId: (args) => data.commentsOfUser(id(args.id), limit(args.limit)),
  };
}
