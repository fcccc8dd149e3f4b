// Handlers of the forum's REST reads: the data layer's answer, a missing row as a 404 problem,
// a database that did not answer in time as a 503. The parameters are already checked by the
// route's params schema (routes.ts) when a handler runs.
import { databaseUnavailable } from '../db-timeouts.ts';
import { PROBLEMS, ProblemError } from '../problem.ts';
import type { ForumData } from './data.ts';

/** A database that did not answer (in time) is a 503; anything else stays an error (a 500). */
export async function unlessUnavailable<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (databaseUnavailable(err)) throw new ProblemError(PROBLEMS.unavailable, 'the database did not answer in time; retry later', { 'retry-after': '1' });
    throw err;
  }
}

function found<T>(value: T | null, what: string): T {
  if (value === null) throw new ProblemError(PROBLEMS.notFound, what);
  return value;
}

export type ForumHandlers = ReturnType<typeof createForumHandlers>;

export function createForumHandlers(data: ForumData) {
  return {
    // GET /comment/:id
    commentById: async (id: number) => found(await unlessUnavailable(() => data.commentById(id)), `comment ${id} does not exist`),
    // GET /comments/:limit
    commentsByLimit: (limit: number) => unlessUnavailable(() => data.commentsByLimit(limit)),
    // GET /user/:id/comment
    firstCommentOfUser: async (id: number) => found(await unlessUnavailable(() => data.firstCommentOfUser(id)), `user ${id} does not exist or has no comment`),
    // GET /user/:id/comments/:limit: [] for a user without comments, 404 for no such user.
    commentsOfUser: async (id: number, limit: number) => found(await unlessUnavailable(() => data.commentsOfUser(id, limit)), `user ${id} does not exist`),
  };
}
