// REST handlers of the forum API: validated parameters (the routes' joi schemas ran already)
// → data access → response. A thrown error reaches onPreResponse (src/problem.js).

import { PROBLEMS, problemError } from '../problem.js';

/** @param {ReturnType<import('../data/forum.js').createForumData>} data */
export function createForumHandlers(data) {
  return {
    // GET /comment/{id}
    async commentById(request) {
      const id = Number(request.params.id);
      const comment = await data.commentById(id);
      if (comment === null) throw problemError(PROBLEMS.notFound, `comment ${id} does not exist`);
      return comment;
    },

    // GET /comments/{limit}
    async commentsByLimit(request) {
      return data.commentsByLimit(Number(request.params.limit));
    },

    // GET /user/{id}/comment
    async firstCommentOfUser(request) {
      const id = Number(request.params.id);
      const comment = await data.firstCommentOfUser(id);
      if (comment === null) throw problemError(PROBLEMS.notFound, `user ${id} does not exist or has no comment`);
      return comment;
    },

    // GET /user/{id}/comments/{limit}: [] for a user without comments, 404 for no such user.
    async commentsOfUser(request) {
      const id = Number(request.params.id);
      const comments = await data.commentsOfUser(id, Number(request.params.limit));
      if (comments === null) throw problemError(PROBLEMS.notFound, `user ${id} does not exist`);
      return comments;
    },
  };
}
