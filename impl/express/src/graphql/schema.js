// The forum GraphQL schema and its root resolvers. The SDL is written here and
// built with graphql's buildSchema, as the paper's Express app did; it is the
// type system of the repo's spec/schema.graphql, descriptions included, so that
// introspection answers the same as the shared schema.

import { buildSchema, GraphQLError } from 'graphql';
import { parseId, parseLimit } from '../params.js';

export const SDL = /* GraphQL */ `
"""
The forum queries of the ASP.NET Core vs Express.js thesis. Each mirrors one REST operation
of spec/openapi.yaml and returns the same objects.
"""
type Query {
  """
  The comment whose comment_id is \`id\` (REST: GET /comment/{id}).
  Null, with no error, when there is no such comment.
  """
  commentById(
    """
    A comment_id: an integer from 1 to 2147483647, given as an Int or as a string of
    decimal digits without sign or leading zeros (^[1-9][0-9]*$). Anything else is a
    BAD_USER_INPUT error on this field (the field is null).
    """
    id: ID!
  ): Comment

  """
  The first \`limit\` comments ordered by comment_id ascending (REST: GET /comments/{limit});
  fewer only when fewer rows exist. Null only together with a BAD_USER_INPUT error.
  """
  commentsByLimit(
    """
    How many comments at most: an integer from 1 to 100. Anything else is a
    BAD_USER_INPUT error on this field (the field is null).
    """
    limit: Int!
  ): [Comment!]

  """
  The user's first comment (lowest comment_id) joined with the user row
  (INNER JOIN comment.user_id = user.user_id; REST: GET /user/{id}/comment).
  Null, with no error, when the user does not exist or has no comment.
  """
  commentByUserId(
    """
    A user_id: an integer from 1 to 2147483647, given as an Int or as a string of
    decimal digits without sign or leading zeros (^[1-9][0-9]*$). Anything else is a
    BAD_USER_INPUT error on this field (the field is null).
    """
    id: ID!
  ): CommentWithUser

  """
  The user's first \`limit\` comments ordered by comment_id ascending, each joined with the
  user row (INNER JOIN comment.user_id = user.user_id; REST: GET /user/{id}/comments/{limit}).
  [] when the user exists but has no comment; null, with no error, when the user does not
  exist.
  """
  commentsByUserId(
    """
    A user_id: an integer from 1 to 2147483647, given as an Int or as a string of
    decimal digits without sign or leading zeros (^[1-9][0-9]*$). Anything else is a
    BAD_USER_INPUT error on this field (the field is null).
    """
    id: ID!
    """
    How many comments at most: an integer from 1 to 100. Anything else is a
    BAD_USER_INPUT error on this field (the field is null).
    """
    limit: Int!
  ): [CommentWithUser!]
}

"""
A row of the comment table (all its columns). user_id has no foreign-key constraint: the
user row may not exist.
"""
type Comment {
  """comment.comment_id (primary key, MySQL INT)."""
  comment_id: Int!
  """comment.thread_id (MySQL INT)."""
  thread_id: Int!
  """comment.user_id (MySQL INT)."""
  user_id: Int!
  """comment.body (VARCHAR(255))."""
  body: String!
  """comment.datemade (DATE NULL) as "YYYY-MM-DD", or null."""
  datemade: String
  """comment.datelastupdated (DATE NULL) as "YYYY-MM-DD", or null."""
  datelastupdated: String
}

"""
A row of the user table (all its columns).
"""
type User {
  """user.user_id (primary key, MySQL INT)."""
  user_id: Int!
  """user.name (VARCHAR(255))."""
  name: String!
  """user.email (VARCHAR(255)), as stored."""
  email: String!
  """user.phone (VARCHAR(255)), as stored."""
  phone: String!
  """user.datemade (DATE NULL) as "YYYY-MM-DD", or null."""
  datemade: String
  """user.datelastupdated (DATE NULL) as "YYYY-MM-DD", or null."""
  datelastupdated: String
}

"""
A comment row (all its columns) with its user row nested as \`user\`
(INNER JOIN comment.user_id = user.user_id, so user_id equals user.user_id).
"""
type CommentWithUser {
  """comment.comment_id (primary key, MySQL INT)."""
  comment_id: Int!
  """comment.thread_id (MySQL INT)."""
  thread_id: Int!
  """comment.user_id (MySQL INT), equal to user.user_id."""
  user_id: Int!
  """comment.body (VARCHAR(255))."""
  body: String!
  """comment.datemade (DATE NULL) as "YYYY-MM-DD", or null."""
  datemade: String
  """comment.datelastupdated (DATE NULL) as "YYYY-MM-DD", or null."""
  datelastupdated: String
  """The user row the comment belongs to (never null: the join is an INNER JOIN)."""
  user: User!
}
`;

export const schema = buildSchema(SDL);

export const BAD_USER_INPUT = 'BAD_USER_INPUT';

function badUserInput(message) {
  // graphql 15 positional constructor: message, nodes, source, positions, path, originalError, extensions
  return new GraphQLError(message, undefined, undefined, undefined, undefined, undefined, { code: BAD_USER_INPUT });
}

function requireId(raw) {
  const id = parseId(raw);
  if (id === null) throw badUserInput('Argument "id" must be an integer 1..2147483647 (no sign, no leading zeros).');
  return id;
}

function requireLimit(raw) {
  const limit = parseLimit(raw);
  if (limit === null) throw badUserInput('Argument "limit" must be an integer 1..100.');
  return limit;
}

/** Root resolvers (rootValue for express-graphql), same rules as the REST handlers. */
export function createRootValue(data) {
  return {
    async commentById({ id }) {
      return data.commentById(requireId(id));
    },

    async commentsByLimit({ limit }) {
      return data.commentsByLimit(requireLimit(limit));
    },

    async commentByUserId({ id }) {
      return data.firstCommentByUserId(requireId(id));
    },

    async commentsByUserId({ id, limit }) {
      const userId = requireId(id);
      const comments = await data.commentsByUserId(userId, requireLimit(limit));
      // [] for a user without comments, null for a user that does not exist.
      if (comments.length === 0 && !(await data.userExists(userId))) return null;
      return comments;
    },
  };
}
